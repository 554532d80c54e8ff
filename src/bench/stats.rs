//! The statistics of a benchmark on a noisy machine: medians with distribution-free intervals, and time ratios
//! with rank-based intervals.
//!
//! Solve times are skewed (a run now and then is slowed by the machine, never sped up), so nothing here
//! assumes a distribution:
//! - one puzzle's median gets the order-statistic interval;
//! - a ratio between two sets of times taken at different moments (this run against a baseline) is the
//!   Hodges-Lehmann shift of their logarithms, with the Mann-Whitney interval: the median and the order
//!   statistics of all the pairwise log-differences;
//! - a ratio between two builds run in turn (`--against`) uses the pairing: each round's two times share the
//!   machine's mood, so the log-ratio of each round is taken, and the Hodges-Lehmann median of their Walsh
//!   averages gets the Wilcoxon signed-rank interval;
//! - a type's ratio is the geometric mean of its puzzles' ratios, and its interval the geometric mean of
//!   their bounds: no narrower than its puzzles' own, since what slows one puzzle of a run (the machine that
//!   minute) slows its neighbours too, and pooling them as independent would claim a certainty the runs do
//!   not have.
//!
//! A run judges many puzzles at once, so the intervals are simultaneous: each is taken at level 1 - 0.05/m
//! for m puzzles (Bonferroni), so that an unchanged run flags nothing 95% of the time, not 5% of puzzles.

pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// A 95% interval for the median: the order statistics whose ranks a Binomial(n, 1/2) puts 1.96 standard
/// deviations either side of n/2 (for fewer than 6 samples, the smallest and the largest).
pub(crate) fn median_interval(xs: &[f64]) -> (f64, f64) {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let half = 1.96 * (n as f64).sqrt() / 2.0;
    let low = ((n as f64 / 2.0 - half).floor().max(1.0) as usize).min(n) - 1;
    let high = ((n as f64 / 2.0 + half).ceil() as usize).clamp(1, n) - 1;
    (v[low], v[high])
}

pub(crate) use crate::report::bench::Ratio;

/// No measurement: a ratio of 1 that nothing bounds.
const UNKNOWN: Ratio = Ratio {
    ratio: 1.0,
    low: 0.0,
    high: f64::INFINITY,
};

/// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9).
pub(crate) fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The two-sided z of an interval at level 1 - alpha.
fn z(alpha: f64) -> f64 {
    normal_quantile(1.0 - alpha / 2.0)
}

fn ln(x: f64) -> f64 {
    // A zero time is below the timer's resolution: a microsecond stands in for it.
    x.max(1e-3).ln()
}

/// The Hodges-Lehmann estimate of sorted log-values (their median) with the interval between the order
/// statistics `z * spread` ranks either side of `centre`, exponentiated back.
fn from_sorted(v: &[f64], centre: f64, spread: f64, alpha: f64) -> Ratio {
    let n = v.len();
    let at = |k: f64| v[(k.max(1.0) as usize).min(n) - 1];
    let k = (centre - z(alpha) * spread).floor();
    Ratio {
        ratio: median(v).exp(),
        low: at(k).exp(),
        high: at(n as f64 + 1.0 - k).exp(),
    }
}

/// `a` over `b`, taken at different times, `a` divided by `scale` (how much slower the machine was): the
/// Hodges-Lehmann shift of the logarithms with its Mann-Whitney interval at level 1 - alpha.
pub(crate) fn shift(a: &[f64], b: &[f64], scale: f64, alpha: f64) -> Ratio {
    if a.is_empty() || b.is_empty() {
        return UNKNOWN;
    }
    let mut d: Vec<f64> = a
        .iter()
        .flat_map(|&x| b.iter().map(move |&y| ln(x) - ln(y) - scale.ln()))
        .collect();
    d.sort_by(f64::total_cmp);
    let (n, m) = (a.len() as f64, b.len() as f64);
    from_sorted(
        &d,
        n * m / 2.0,
        (n * m * (n + m + 1.0) / 12.0).sqrt(),
        alpha,
    )
}

/// `a[k]` over `b[k]`, taken in turn: the Hodges-Lehmann median of the Walsh averages of the log-ratios with
/// its Wilcoxon signed-rank interval at level 1 - alpha.
pub(crate) fn paired(a: &[f64], b: &[f64], alpha: f64) -> Ratio {
    let d: Vec<f64> = a.iter().zip(b).map(|(&x, &y)| ln(x) - ln(y)).collect();
    if d.is_empty() {
        return UNKNOWN;
    }
    let mut walsh: Vec<f64> = (0..d.len())
        .flat_map(|i| (i..d.len()).map(move |j| (i, j)))
        .map(|(i, j)| (d[i] + d[j]) / 2.0)
        .collect();
    walsh.sort_by(f64::total_cmp);
    let n = d.len() as f64;
    from_sorted(
        &walsh,
        n * (n + 1.0) / 4.0,
        (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0).sqrt(),
        alpha,
    )
}

/// A type's ratio: the geometric mean of its puzzles' ratios and of their bounds.
pub(crate) fn pooled(ratios: &[Ratio]) -> Ratio {
    if ratios.is_empty() {
        return UNKNOWN;
    }
    let k = ratios.len() as f64;
    let mean = |f: fn(&Ratio) -> f64| (ratios.iter().map(|r| f(r).ln()).sum::<f64>() / k).exp();
    Ratio {
        ratio: mean(|r| r.ratio),
        low: mean(|r| r.low),
        high: mean(|r| r.high),
    }
}

/// The level of each of m simultaneous intervals that together hold at 95% (Bonferroni).
pub(crate) fn alpha_for(m: usize) -> f64 {
    0.05 / m.max(1) as f64
}

/// Times a fixed piece of work that does not depend on latin's code, in milliseconds: a pseudo-random walk
/// over a table the size of a last-level cache (8 MB), about as long as a small solve. Taken beside every
/// solve, it measures how fast the machine is at that moment, caches and memory included (a neighbour on a
/// shared machine slows the solver through them far more than through the core alone). A run compared with
/// a baseline taken at another time is judged on its times divided by this, so a machine that is 1.5 times
/// slower this minute is not 1.5 times more regressions.
pub(crate) fn calibration_ms() -> f64 {
    use std::sync::OnceLock;
    static TABLE: OnceLock<std::sync::Mutex<Vec<u64>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| std::sync::Mutex::new(vec![0; 1 << 20]));
    let mut table = table
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let start = std::time::Instant::now();
    let mask = table.len() - 1;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..20_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = (x as usize) & mask;
        table[k] = table[k].wrapping_add(x).rotate_left(i & 63);
    }
    std::hint::black_box(&*table);
    start.elapsed().as_secs_f64() * 1000.0
}

/// A stable 64-bit FNV-1a hash of a puzzle's bytes, as 16 hex digits: the same file hashes the same on every
/// machine and every build (the standard library's hasher promises neither).
pub(crate) fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_their_intervals() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median_interval(&[5.0, 1.0, 3.0]), (1.0, 5.0));
        let xs: Vec<f64> = (1..=100).map(f64::from).collect();
        // Binomial(100, 1/2): ranks 40 and 60.
        assert_eq!(median_interval(&xs), (40.0, 60.0));
    }

    #[test]
    fn normal_quantiles() {
        assert!((normal_quantile(0.975) - 1.959964).abs() < 1e-5);
        assert!((normal_quantile(0.5)).abs() < 1e-12);
        assert!((normal_quantile(0.001) + 3.090232).abs() < 1e-5);
    }

    fn noisy(centre: f64, n: u32) -> Vec<f64> {
        let mut rng = fastrand::Rng::with_seed(u64::from(n) + centre.to_bits());
        (0..n).map(|_| centre * (1.0 + 0.2 * rng.f64())).collect()
    }

    #[test]
    fn shifts_hold_the_truth_and_see_a_doubling() {
        let base = noisy(10.0, 20);
        let same = shift(&noisy(10.0, 21), &base, 1.0, 0.05);
        assert!(same.low <= 1.0 && same.high >= 1.0, "{same:?}");
        let slow = shift(&noisy(20.0, 22), &base, 1.0, 0.05);
        assert!(slow.low > 1.7 && slow.high < 2.3, "{slow:?}");
        // The machine twice as slow: no change once divided out.
        let drift = shift(&noisy(20.0, 22), &base, 2.0, 0.05);
        assert!(drift.low <= 1.0 && drift.high >= 1.0, "{drift:?}");
    }

    #[test]
    fn pairs_cancel_what_the_machine_does_to_both() {
        // A machine whose speed wanders by 3x from round to round, one build 10% slower throughout.
        let mut rng = fastrand::Rng::with_seed(7);
        let mood: Vec<f64> = (0..20).map(|_| 1.0 + 2.0 * rng.f64()).collect();
        let b: Vec<f64> = mood.iter().map(|m| m * (1.0 + 0.02 * rng.f64())).collect();
        let a: Vec<f64> = mood
            .iter()
            .map(|m| 1.1 * m * (1.0 + 0.02 * rng.f64()))
            .collect();
        let r = paired(&a, &b, 0.05);
        assert!(r.low > 1.05 && r.high < 1.15, "{r:?}");
        let unpaired = shift(&a, &b, 1.0, 0.05);
        assert!(
            unpaired.low < 1.0,
            "without the pairing the wander hides it: {unpaired:?}"
        );
    }

    #[test]
    fn a_type_pools_its_puzzles() {
        let base = noisy(10.0, 20);
        let twice: Vec<f64> = base.iter().map(|x| x * 2.0).collect();
        let half: Vec<f64> = base.iter().map(|x| x / 2.0).collect();
        let slower = shift(&twice, &base, 1.0, 0.05);
        let faster = shift(&half, &base, 1.0, 0.05);
        assert!((slower.ratio - 2.0).abs() < 1e-9, "{slower:?}");
        let t = pooled(&[slower, faster]);
        assert!(t.low < 1.0 && t.high > 1.0, "{t:?}");
        assert!((alpha_for(10) - 0.005).abs() < 1e-12);
    }

    #[test]
    fn hashes_are_fixed() {
        assert_eq!(content_hash(b""), "cbf29ce484222325");
        assert_eq!(content_hash(b"a"), "af63dc4c8601ec8c");
    }
}
