//! The bench report as one self-contained HTML page (`latin bench --html FILE`): what failed, a chart per type
//! of this run's times against the baseline's, a chart of the ratios with their intervals, and the tables.
//!
//! No scripts, no fonts, no network: inline CSS and inline SVG, so the file opens anywhere and can be kept as
//! a CI artifact.

use std::fmt::Write as _;

use super::bench::{own_failures, Compared, Report};

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:70em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;font-size:.9em}td,th{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}.fail{color:#b00020;font-weight:600}.note{color:#555}
.slower{background:#fde7ea}svg text{font-size:12px;fill:#222}";

/// The whole page; `baseline` is the saved run compared against, when there is one.
pub(crate) fn render(report: &Report, baseline: Option<&Report>, tolerance: f64) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>latin bench</title><style>{STYLE}</style></head><body>\n<h1>latin bench: {} puzzles of {} types</h1>\n",
        report.puzzles.len(),
        report.types.len()
    );
    let _ = writeln!(
        out,
        "<p>{}-{} runs a puzzle, median with its 95% interval; {} cores.</p>",
        report.min_runs, report.max_runs, report.cores
    );
    findings(&mut out, report);
    if let Some(b) = baseline {
        out.push_str("<h2>Median time per type: this run and the baseline</h2>\n");
        out.push_str(&times_chart(report, b));
    }
    if let Some(c) = &report.comparison {
        let _ = writeln!(
            out,
            "<h2>Ratio per type: this run over {}</h2>\n<p>Geometric mean of the puzzles' ratios; the bar is its simultaneous 95% interval, the shaded band is within tolerance (up to {:.2}).</p>",
            escape(&c.against),
            1.0 + tolerance
        );
        out.push_str(&ratio_chart(&c.types, tolerance));
    }
    tables(&mut out, report);
    out.push_str("</body></html>\n");
    out
}

fn findings(out: &mut String, report: &Report) {
    let mut items: Vec<(bool, String)> = own_failures(report)
        .into_iter()
        .map(|f| (true, f))
        .collect();
    if let Some(c) = &report.comparison {
        items.extend(
            c.findings
                .iter()
                .map(|f| (f.fails, format!("{}: {}", f.id, f.what))),
        );
    }
    let failed = items.iter().filter(|(fails, _)| *fails).count();
    let _ = writeln!(
        out,
        "<h2>{}</h2>",
        if failed == 0 {
            "No failures".to_owned()
        } else {
            format!("{failed} failure{}", if failed == 1 { "" } else { "s" })
        }
    );
    let list = |out: &mut String, fails: bool| {
        out.push_str("<ul>\n");
        for (_, text) in items.iter().filter(|(f, _)| *f == fails) {
            let class = if fails { "fail" } else { "note" };
            let _ = writeln!(out, "<li class=\"{class}\">{}</li>", escape(text));
        }
        out.push_str("</ul>\n");
    };
    if failed > 0 {
        list(out, true);
    }
    let notes = items.len() - failed;
    if notes > 0 {
        let _ = writeln!(
            out,
            "<details><summary>{notes} note{} (new or edited puzzles, changed work counts)</summary>",
            if notes == 1 { "" } else { "s" }
        );
        list(out, false);
        out.push_str("</details>\n");
    }
}

/// The x position of a value on a log axis from `lo` to `hi` over `width` pixels.
fn log_x(v: f64, lo: f64, hi: f64, width: f64) -> f64 {
    let v = v.clamp(lo, hi);
    (v.ln() - lo.ln()) / (hi.ln() - lo.ln()) * width
}

const LABEL: f64 = 130.0;
const PLOT: f64 = 520.0;
const ROW: f64 = 22.0;

/// Powers of ten on a log axis, with their grid lines and labels.
fn decades(out: &mut String, lo: f64, hi: f64, height: f64, unit: &str) {
    let mut v = 10f64.powf(lo.log10().ceil());
    while v <= hi * 1.0001 {
        let x = LABEL + log_x(v, lo, hi, PLOT);
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="0" x2="{x:.1}" y2="{height:.1}" stroke="#e4e4e4"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{v}{unit}</text>"##,
            height + 14.0
        );
        v *= 10.0;
    }
}

/// Two bars per type on a log scale: this run's median (blue) over the baseline's (grey).
fn times_chart(report: &Report, baseline: &Report) -> String {
    let rows: Vec<(&str, f64, Option<f64>)> = report
        .types
        .iter()
        .map(|t| {
            let before = baseline
                .types
                .iter()
                .find(|b| b.kind == t.kind)
                .map(|b| b.median_ms);
            (t.kind.as_str(), t.median_ms, before)
        })
        .collect();
    let values = rows.iter().flat_map(|(_, a, b)| [Some(*a), *b]).flatten();
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(v), h.max(v)));
    let lo = 10f64.powf(lo.max(1e-4).log10().floor());
    let hi = 10f64.powf(hi.max(lo * 10.0).log10().ceil());
    let height = rows.len() as f64 * ROW;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">\n",
        LABEL + PLOT + 50.0,
        height + 24.0
    );
    decades(&mut out, lo, hi, height, " ms");
    for (i, (kind, now, before)) in rows.iter().enumerate() {
        let y = i as f64 * ROW;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LABEL - 6.0,
            y + 15.0,
            escape(kind)
        );
        if let Some(b) = before {
            let _ = writeln!(
                out,
                r##"<rect x="{LABEL}" y="{:.1}" width="{:.1}" height="8" fill="#b9b9b9"><title>baseline {b:.3} ms</title></rect>"##,
                y + 3.0,
                log_x(*b, lo, hi, PLOT).max(1.0)
            );
        }
        let _ = writeln!(
            out,
            r##"<rect x="{LABEL}" y="{:.1}" width="{:.1}" height="8" fill="#1f5fbf"><title>now {now:.3} ms</title></rect>"##,
            y + 11.0,
            log_x(*now, lo, hi, PLOT).max(1.0)
        );
    }
    out.push_str("</svg>\n<p><span style=\"color:#1f5fbf\">&#9632;</span> this run &nbsp; <span style=\"color:#b9b9b9\">&#9632;</span> baseline</p>\n");
    out
}

/// One dot and interval bar per type on a log scale from 1/4 to 4, with 1 and the tolerance marked.
fn ratio_chart(types: &[Compared], tolerance: f64) -> String {
    let (lo, hi) = (0.25, 4.0);
    let height = types.len() as f64 * ROW;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">\n",
        LABEL + PLOT + 50.0,
        height + 24.0
    );
    let x = |v: f64| LABEL + log_x(v, lo, hi, PLOT);
    let _ = writeln!(
        out,
        r##"<rect x="{:.1}" y="0" width="{:.1}" height="{height:.1}" fill="#eef5ee"/>"##,
        x(1.0 / (1.0 + tolerance)),
        x(1.0 + tolerance) - x(1.0 / (1.0 + tolerance))
    );
    for (v, label) in [
        (0.25, "¼×"),
        (0.5, "½×"),
        (1.0, "1×"),
        (2.0, "2×"),
        (4.0, "4×"),
    ] {
        let _ = writeln!(
            out,
            r##"<line x1="{0:.1}" y1="0" x2="{0:.1}" y2="{height:.1}" stroke="{1}"/><text x="{0:.1}" y="{2:.1}" text-anchor="middle">{label}</text>"##,
            x(v),
            if v == 1.0 { "#888" } else { "#e4e4e4" },
            height + 14.0
        );
    }
    for (i, t) in types.iter().enumerate() {
        let y = i as f64 * ROW + 11.0;
        let colour = if t.slower { "#b00020" } else { "#1f5fbf" };
        let r = &t.ratio;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="3"/><circle cx="{:.1}" cy="{y:.1}" r="4" fill="{colour}"><title>{:.2} [{:.2}, {:.2}]</title></circle>"#,
            LABEL - 6.0,
            y + 4.0,
            escape(&t.name),
            x(r.low),
            x(r.high),
            x(r.ratio),
            r.ratio,
            r.low,
            r.high
        );
    }
    out.push_str("</svg>\n");
    out
}

fn tables(out: &mut String, report: &Report) {
    let compared = report.comparison.as_ref();
    let ratio = |list: Option<&Vec<Compared>>, name: &str| {
        list.and_then(|l| l.iter().find(|c| c.name == name))
            .map_or_else(
                || ("-".to_owned(), false),
                |c| {
                    (
                        format!(
                            "{:.2} [{:.2}, {:.2}]",
                            c.ratio.ratio, c.ratio.low, c.ratio.high
                        ),
                        c.slower,
                    )
                },
            )
    };
    out.push_str("<h2>Types</h2>\n<table><tr><th>type</th><th>puzzles</th><th>median ms</th><th>slowest ms</th><th>total ms</th><th>mismatches</th><th>ratio [95%]</th><th>other's median ms</th><th>other's total ms</th></tr>\n");
    for t in &report.types {
        let (r, slower) = ratio(compared.map(|c| &c.types), &t.kind);
        // The other side's median and total over the puzzles both timed (`Compared::times`).
        let other = compared.and_then(|c| c.type_times(&t.kind)).map_or_else(
            || ("-".to_owned(), "-".to_owned()),
            |[_, o]| (format!("{:.3}", o.median_ms), format!("{:.1}", o.total_ms)),
        );
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{:.1}</td><td>{}</td><td>{r}</td><td>{}</td><td>{}</td></tr>",
            if slower { " class=\"slower\"" } else { "" },
            escape(&t.kind),
            t.puzzles,
            t.median_ms,
            t.slowest_ms,
            t.total_ms,
            t.mismatches,
            other.0,
            other.1
        );
    }
    out.push_str("</table>\n<h2>Puzzles</h2>\n<table><tr><th>puzzle</th><th>type</th><th>status</th><th>count</th><th>ok</th><th>median ms</th><th>95% interval</th><th>runs</th><th>ratio [95%]</th></tr>\n");
    for p in &report.puzzles {
        let (r, slower) = ratio(compared.map(|c| &c.puzzles), &p.id);
        let ok = match p.matches {
            Some(true) => "yes",
            Some(false) => "<span class=\"fail\">NO</span>",
            None => "-",
        };
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{ok}</td><td>{:.3}</td><td>{:.3}-{:.3}</td><td>{}</td><td>{r}</td></tr>",
            if slower { " class=\"slower\"" } else { "" },
            escape(&p.id),
            escape(&p.kind),
            escape(&p.status),
            p.count,
            p.median_ms,
            p.low_ms,
            p.high_ms,
            p.times_ms.len()
        );
    }
    out.push_str("</table>\n");
}
