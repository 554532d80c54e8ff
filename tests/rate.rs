//! `latin rate` orders puzzles as Simon Tatham's generators grade them: for each grade of `solo`, `keen` and
//! `towers` (Debian `sgt-puzzles`), generated puzzles are rated, and the rank correlation between the game's
//! grade and latin's score must stay high (the README reports it over 100 puzzles a grade, `LATIN_RATE_PER_GRADE=100`;
//! 15 a grade by default, so CI stays fast). The games are required under `CI=true`.

mod common;

use std::process::Command;

/// Spearman's rank correlation (ties share their mean rank).
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let ranks = |v: &[f64]| {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < v.len() {
            let mut j = i;
            while j + 1 < v.len() && v[order[j + 1]] == v[order[i]] {
                j += 1;
            }
            for k in i..=j {
                r[order[k]] = (i + j) as f64 / 2.0;
            }
            i = j + 1;
        }
        r
    };
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

fn correlation(name: &str, size: &str, grades: &[char], per_grade: usize) -> Option<f64> {
    let program = common::tatham_game(name)?;
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (k, g) in grades.iter().enumerate() {
        let out = Command::new(&program)
            .args(["--generate", &per_grade.to_string(), &format!("{size}d{g}")])
            .output()
            .unwrap();
        for id in String::from_utf8(out.stdout).unwrap().split_whitespace() {
            let rated = Command::new(env!("CARGO_BIN_EXE_latin"))
                .args(["rate", &format!("{name}:{id}"), "--format", "json"])
                .output()
                .unwrap();
            assert!(rated.status.success(), "{name}:{id}");
            let json: serde_json::Value = serde_json::from_slice(&rated.stdout).unwrap();
            x.push(k as f64);
            y.push(json["score"].as_f64().unwrap());
        }
    }
    assert_eq!(x.len(), grades.len() * per_grade);
    Some(spearman(&x, &y))
}

#[test]
fn ratings_follow_tathams_grades() {
    for (name, size, grades, floor) in [
        ("solo", "3x3", &['t', 'b', 'i', 'a', 'e', 'u'][..], 0.85),
        ("keen", "6", &['e', 'n', 'h', 'x', 'u'][..], 0.85),
        ("towers", "6", &['e', 'h', 'x', 'u'][..], 0.7),
    ] {
        // `LATIN_RATE_PER_GRADE=100` measures the README's figures.
        let per_grade = std::env::var("LATIN_RATE_PER_GRADE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(15);
        let Some(rho) = correlation(name, size, grades, per_grade) else {
            return;
        };
        eprintln!("{name}: rank correlation {rho:.3}");
        assert!(rho >= floor, "{name}: rank correlation {rho:.3} < {floor}");
    }
}
