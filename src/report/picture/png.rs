//! The SVG picture rasterised to PNG in-process with `resvg`: no system library, no browser.
//!
//! resvg is the reference-quality pure-Rust SVG renderer (it passes most of the SVG test suite), so the PNG is
//! the SVG as a browser shows it. Its text needs fonts: DejaVu Sans is embedded (the `dejavu` crate) instead of
//! reading the system's, so a picture is the same on every machine, including one with no fonts at all.

use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use crate::error::Error;

/// The most pixels a PNG may have (4 bytes each while it is drawn: 256 MB).
const MAX_PIXELS: u64 = 64 << 20;

/// Refuses a picture of `width` x `height` SVG units that would be too many pixels at `scale`: asked before a
/// puzzle is solved, so that a picture too large is refused at once, not after the solve.
pub(crate) fn fits((width, height): (f64, f64), scale: f32) -> Result<(), Error> {
    let size = usvg::Size::from_wh(width as f32, height as f32)
        .ok_or_else(|| Error::Picture("the picture has no area".into()))?;
    pixels(size, scale).map(|_| ())
}

/// The picture's size in pixels at `scale`, refused past [`MAX_PIXELS`].
fn pixels(size: usvg::Size, scale: f32) -> Result<tiny_skia::IntSize, Error> {
    let size = size
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| Error::Picture(format!("the picture cannot be scaled by {scale}")))?;
    let pixels = u64::from(size.width()) * u64::from(size.height());
    if pixels > MAX_PIXELS {
        return Err(Error::Input {
            section: "--scale".into(),
            position: None,
            message: format!(
                "the picture would be {}x{} pixels, more than {MAX_PIXELS} in all: lower --scale",
                size.width(),
                size.height()
            ),
        });
    }
    Ok(size)
}

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
    let size = pixels(tree.size(), scale)?;
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
