//! Removals tried in a fixed order, several at once, with the outcome of trying them one at a time.
//!
//! `generate` thins a puzzle by trying its givens, then its clues, in a random order, each removal kept when the
//! solution stays the only one. Late in a large grid nearly every removal fails, and each failure is a proof
//! run to its end (a 25x25 Sudoku's last few hundred trials, 0.1-0.4 s each, are most of its 44 s). Trials are
//! independent of each other as long as none holds, so the threads take the next ones in order on the same
//! state, each the next not yet taken, and the outcomes are read in order: up to the first that holds, each is
//! the one a trial alone would have given; that removal is made, and the trials after it that had started, on
//! the state before it, are dropped and run again on the new state. So the puzzle made is the same for every
//! number of threads (a seed still makes one puzzle), and the threads pay where trials fail, which is where the
//! time goes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::Error;

/// What one trial removal came to.
pub(super) enum Trial<S> {
    /// The puzzle without it still has the one solution: the removal stands, and this is the state after it.
    Holds(S),
    /// Refused, another solution found, or not proved within the proof's bound: the state stays as it was.
    Fails,
}

/// Trials quicker than this on average run one at a time: starting threads (rayon's pool, a scope a round) cost
/// more than they save on a 9x9, whose trials take microseconds (2 ms a puzzle on XV and sandwich Sudokus, where
/// thinning takes 10-20 ms).
const ALONE_BELOW: Duration = Duration::from_millis(1);

/// Trials that failed in a row, after the last that held, before the threads take the next ones. A trial run
/// beside one that holds is run again, and waited for: where trials mostly hold (early in a thinning, and in
/// futoshiki's), threads after every failure made thinning 1.05-1.10x slower.
const AFTER_FAILED: usize = 2;

/// How removals are tried: on how many threads, and how long trials must take on average before threads help.
pub(super) struct Rounds {
    threads: usize,
    alone_below: Duration,
}

impl Rounds {
    /// Up to `threads` trials at once, on rayon's threads, where they take [`ALONE_BELOW`] or more.
    pub(super) fn on(threads: usize) -> Self {
        Rounds {
            threads,
            alone_below: ALONE_BELOW,
        }
    }

    /// Tries `candidates` in order on `state`, making each removal whose `trial` holds, exactly as trying them
    /// one at a time would (see the module's doc). After a trial that held they run one at a time, until
    /// [`AFTER_FAILED`] have failed in a row and the trials are slow; then the threads take every trial up to the
    /// next that holds. `stop` is asked before each trial; once it says so, the state is kept as it is. The first
    /// error in order ends it, as it would one at a time (an error in a trial after one that holds was never
    /// asked for).
    pub(super) fn in_order<S, C>(
        &self,
        mut state: S,
        candidates: &[C],
        stop: impl Fn() -> bool + Sync,
        trial: impl Fn(&S, &C) -> Result<Trial<S>, Error> + Sync,
    ) -> Result<S, Error>
    where
        S: Send + Sync,
        C: Sync,
    {
        // Failed trials since the last that held, and whether the last round's trials were slow.
        let (mut next, mut failed, mut slow) = (0, 0, false);
        while next < candidates.len() {
            let started = Instant::now();
            let ran = if self.threads > 1 && slow && failed >= AFTER_FAILED {
                round(&state, &candidates[next..], self.threads, &stop, &trial)
            } else {
                round(&state, &candidates[next..=next], 1, &stop, &trial)
            };
            if ran.is_empty() {
                break;
            }
            slow = started.elapsed() >= self.alone_below * ran.len() as u32;
            next += ran.len();
            failed += ran.len();
            if let Trial::Holds(fewer) = ran.into_iter().last().expect("not empty")? {
                state = fewer;
                failed = 0;
            }
        }
        Ok(state)
    }
}

/// The outcomes of `candidates` on `state` from the first on, up to and with the first that holds or fails with
/// an error, or up to where `stop` said so: every trial before that one failed. The threads take the
/// candidates in order, each the next one not yet taken, and take none past the first that is known to hold;
/// the ones past it already running are left to finish and dropped.
fn round<S, C>(
    state: &S,
    candidates: &[C],
    threads: usize,
    stop: &(impl Fn() -> bool + Sync),
    trial: &(impl Fn(&S, &C) -> Result<Trial<S>, Error> + Sync),
) -> Vec<Result<Trial<S>, Error>>
where
    S: Send + Sync,
    C: Sync,
{
    let taken = AtomicUsize::new(0);
    let first_ending = AtomicUsize::new(usize::MAX);
    let outcomes = Mutex::new(Vec::new());
    let work = || loop {
        let k = taken.fetch_add(1, Ordering::Relaxed);
        if k >= candidates.len() || k > first_ending.load(Ordering::Relaxed) || stop() {
            return;
        }
        let outcome = trial(state, &candidates[k]);
        if !matches!(outcome, Ok(Trial::Fails)) {
            first_ending.fetch_min(k, Ordering::Relaxed);
        }
        outcomes.lock().expect("no trial panics").push((k, outcome));
    };
    if threads <= 1 {
        work();
    } else {
        rayon::scope(|s| {
            (1..threads).for_each(|_| s.spawn(|_| work()));
            work();
        });
    }
    let mut outcomes = outcomes.into_inner().expect("no trial panics");
    outcomes.sort_unstable_by_key(|&(k, _)| k);
    // The run of trials from the first: a gap is where `stop` cut in; past the first ending, dropped.
    let mut ran = Vec::new();
    for (k, outcome) in outcomes {
        let ends = !matches!(outcome, Ok(Trial::Fails));
        if k != ran.len() {
            break;
        }
        ran.push(outcome);
        if ends {
            break;
        }
    }
    ran
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pool of its own, so that `threads` trials do run at once whatever the machine's pool has.
    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Rounds on threads from the first slow-enough trial: every trial here is.
    fn on(threads: usize) -> Rounds {
        Rounds {
            threads,
            alone_below: Duration::ZERO,
        }
    }

    /// A toy thinning whose outcome depends on the order: a set of numbers loses a candidate when the sum left
    /// stays at least `floor`. Run one at a time by hand, and by [`Rounds::in_order`] with 1 to 4 threads.
    #[test]
    fn the_outcome_is_the_one_at_a_time_outcome_for_any_number_of_threads() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..200 {
            let numbers: Vec<u32> = (0..rng.usize(1..12)).map(|_| rng.u32(1..20)).collect();
            let total: u32 = numbers.iter().sum();
            let floor = rng.u32(0..=total);
            let mut order: Vec<usize> = (0..numbers.len()).collect();
            rng.shuffle(&mut order);
            let trial = |kept: &Vec<bool>, &i: &usize| -> Result<Trial<Vec<bool>>, Error> {
                // Long enough that the threads' trials overlap, as a proof's do.
                std::thread::sleep(Duration::from_micros(50));
                let left: u32 = (0..numbers.len())
                    .filter(|&j| kept[j] && j != i)
                    .map(|j| numbers[j])
                    .sum();
                Ok(if kept[i] && left >= floor {
                    let mut fewer = kept.clone();
                    fewer[i] = false;
                    Trial::Holds(fewer)
                } else {
                    Trial::Fails
                })
            };
            let mut alone = vec![true; numbers.len()];
            for i in &order {
                if let Trial::Holds(fewer) = trial(&alone, i).unwrap() {
                    alone = fewer;
                }
            }
            for threads in 1..=4 {
                let start = vec![true; numbers.len()];
                let got = pool(threads)
                    .install(|| on(threads).in_order(start, &order, || false, trial))
                    .unwrap();
                assert_eq!(got, alone, "{numbers:?} floor {floor}, {threads} threads");
            }
        }
    }

    #[test]
    fn stop_keeps_the_state_and_an_error_in_order_ends_it() {
        // One thread, so that the stop is asked at known points: before each trial taken.
        let asked = AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 2;
        let all = |n: &usize, _: &usize| -> Result<Trial<usize>, Error> { Ok(Trial::Holds(n + 1)) };
        assert_eq!(on(1).in_order(0, &[0, 1, 2, 3], stop, all).unwrap(), 2);
        // An error after a trial that holds was not asked for; one before it is the answer.
        let failing = |n: &usize, &c: &usize| -> Result<Trial<usize>, Error> {
            match c {
                1 if *n == 0 => Ok(Trial::Holds(1)),
                2 if *n == 0 => Err(Error::Solver("speculative".into())),
                9 => Err(Error::Solver("in order".into())),
                _ => Ok(Trial::Fails),
            }
        };
        // Slow trials, so that three threads take all three before any is known to hold: the third, run on the
        // state before the second, is dropped.
        let slow = |n: &usize, c: &usize| {
            std::thread::sleep(Duration::from_millis(20));
            failing(n, c)
        };
        let ran = pool(3).install(|| round(&0, &[0, 1, 2], 3, &|| false, &slow));
        assert_eq!(ran.len(), 2);
        assert_eq!(on(3).in_order(0, &[0, 1, 2], || false, failing).unwrap(), 1);
        assert!(on(3).in_order(0, &[0, 9, 1], || false, failing).is_err());
    }
}
