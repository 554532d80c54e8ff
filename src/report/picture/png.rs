//! The SVG picture rasterised to PNG in-process with `resvg`: no system library, no browser.
//!
//! resvg is the reference-quality pure-Rust SVG renderer (it passes most of the SVG test suite), so the PNG is
//! the SVG as a browser shows it. Its text needs fonts: DejaVu Sans is embedded (the `dejavu` crate) instead of
//! reading the system's, so a picture is the same on every machine, including one with no fonts at all.

use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use crate::error::Error;

/// Rasterises an SVG at `scale` pixels per SVG unit.
pub(crate) fn render(svg: &str, scale: f32) -> Result<Vec<u8>, Error> {
    let mut options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(dejavu::sans::regular().to_vec());
    fonts.load_font_data(dejavu::sans::bold().to_vec());
    options.fontdb = Arc::new(fonts);
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| Error::Picture(e.to_string()))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| Error::Picture(format!("the picture cannot be scaled by {scale}")))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Error::Picture("the picture has no area".into()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| Error::Picture(e.to_string()))
}
