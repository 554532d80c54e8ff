//! A linear program solved again and again by COIN-OR Clp's simplex, each time from the last basis: what probing
//! on the relaxation ([`super::relax`]) needs, behind a safe interface.
//!
//! Clp is the LP solver CBC is built on, so it is compiled and linked already (`cbc-src` builds it from source
//! through `clp-src`), C interface included (`Clp_C_Interface`). `coinclp-sys` would bind the same functions, but
//! it generates its bindings with bindgen at build time, which needs libclang on the machine; the dozen
//! declarations below are Clp 1.17's stable C API, written out once. This is the crate's only `unsafe` code:
//! each call passes the one model this value owns, with arrays whose lengths are checked against the model.

use std::os::raw::c_int;
use std::ptr::NonNull;
use std::time::Instant;

use crate::program::Row;

/// Clp's `Clp_Simplex`, never looked into.
#[repr(C)]
struct ClpModel {
    _opaque: [u8; 0],
}

extern "C" {
    fn Clp_newModel() -> *mut ClpModel;
    fn Clp_deleteModel(model: *mut ClpModel);
    // Clp's own signature: a column-major matrix, bounds and objective in one call.
    #[allow(clippy::too_many_arguments)]
    fn Clp_loadProblem(
        model: *mut ClpModel,
        numcols: c_int,
        numrows: c_int,
        start: *const c_int,
        index: *const c_int,
        value: *const f64,
        collb: *const f64,
        colub: *const f64,
        obj: *const f64,
        rowlb: *const f64,
        rowub: *const f64,
    );
    fn Clp_setLogLevel(model: *mut ClpModel, value: c_int);
    fn Clp_scaling(model: *mut ClpModel, mode: c_int);
    fn Clp_primal(model: *mut ClpModel, if_values_pass: c_int) -> c_int;
    fn Clp_setMaximumSeconds(model: *mut ClpModel, value: f64);
    fn Clp_chgColumnUpper(model: *mut ClpModel, upper: *const f64);
    fn Clp_chgObjCoefficients(model: *mut ClpModel, obj: *const f64);
    fn Clp_status(model: *mut ClpModel) -> c_int;
    fn Clp_getColSolution(model: *mut ClpModel) -> *const f64;
}

/// `lower <= A x <= upper` over columns with bounds, minimised by the primal simplex from the basis the last
/// solve ended at.
pub(crate) struct Lp {
    model: NonNull<ClpModel>,
    cols: usize,
    /// The column upper bounds as the model has them (Clp takes them whole).
    upper: Vec<f64>,
    /// Clp's status after the last solve: 0 optimal, 1 infeasible, others no proof either way.
    status: c_int,
}

impl Lp {
    /// The program of `rows` over `lower.len()` columns (every term's column among them), nothing minimised.
    pub(crate) fn new(rows: &[&Row], lower: &[f64], upper: &[f64]) -> Lp {
        let cols = lower.len();
        assert_eq!(upper.len(), cols, "a bound per column");
        let mut by_column: Vec<Vec<(c_int, f64)>> = vec![Vec::new(); cols];
        for (r, row) in rows.iter().enumerate() {
            for &(i, a) in &row.terms {
                by_column[i].push((r as c_int, a));
            }
        }
        let mut start = Vec::with_capacity(cols + 1);
        let (mut index, mut value) = (Vec::new(), Vec::new());
        start.push(0);
        for column in &by_column {
            for &(r, a) in column {
                index.push(r);
                value.push(a);
            }
            start.push(index.len() as c_int);
        }
        let row_lower: Vec<f64> = rows.iter().map(|r| r.lower).collect();
        let row_upper: Vec<f64> = rows.iter().map(|r| r.upper).collect();
        let objective = vec![0.0; cols];
        // SAFETY: Clp_newModel returns a fresh model (it aborts rather than return null on allocation failure;
        // NonNull checks anyway). loadProblem copies every array: `start` has cols + 1 entries, `index` and
        // `value` start[cols] each, the column arrays cols and the row arrays rows.len().
        unsafe {
            let model = NonNull::new(Clp_newModel()).expect("Clp allocates a model");
            Clp_setLogLevel(model.as_ptr(), 0);
            // The rows' coefficients are small integers: scaling buys nothing and is redone at every solve
            // (measured on little killer: 4.5 -> 3.4 s for the same probes).
            Clp_scaling(model.as_ptr(), 0);
            Clp_loadProblem(
                model.as_ptr(),
                cols as c_int,
                rows.len() as c_int,
                start.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
                objective.as_ptr(),
                row_lower.as_ptr(),
                row_upper.as_ptr(),
            );
            Lp {
                model,
                cols,
                upper: upper.to_vec(),
                status: -1,
            }
        }
    }

    /// Minimises `objective` (one coefficient per column), stopping at `until`: the optimal point, `None` when
    /// Clp proves none (infeasible) or stops without proof.
    pub(crate) fn minimize(&mut self, objective: &[f64], until: Instant) -> Option<&[f64]> {
        assert_eq!(objective.len(), self.cols, "a coefficient per column");
        let seconds = until
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        if seconds == 0.0 {
            self.status = -1;
            return None;
        }
        // SAFETY: the model is ours and alive; the objective has a coefficient per column (copied by Clp).
        self.status = unsafe {
            Clp_setMaximumSeconds(self.model.as_ptr(), seconds);
            Clp_chgObjCoefficients(self.model.as_ptr(), objective.as_ptr());
            Clp_primal(self.model.as_ptr(), 0);
            Clp_status(self.model.as_ptr())
        };
        self.last()
    }

    /// The optimal point of the last solve, if it ended optimal.
    pub(crate) fn last(&self) -> Option<&[f64]> {
        // SAFETY: Clp's solution has a value per column and lives until a call that changes the model, which
        // needs `&mut self` while the slice borrows `self`.
        (self.status == 0).then(|| unsafe {
            std::slice::from_raw_parts(Clp_getColSolution(self.model.as_ptr()), self.cols)
        })
    }

    /// The last solve proved that no point satisfies the rows.
    pub(crate) fn infeasible(&self) -> bool {
        self.status == 1
    }

    /// Sets column `i`'s upper bound to 0.
    pub(crate) fn forbid(&mut self, i: usize) {
        self.upper[i] = 0.0;
        self.status = -1;
        // SAFETY: the model is ours; `upper` has a bound per column, copied by Clp.
        unsafe { Clp_chgColumnUpper(self.model.as_ptr(), self.upper.as_ptr()) }
    }
}

impl Drop for Lp {
    fn drop(&mut self) {
        // SAFETY: the model was made by Clp_newModel and is deleted once, here.
        unsafe { Clp_deleteModel(self.model.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::cdcl::tests::row;

    #[test]
    fn minimises_from_the_last_basis_and_sees_infeasibility() {
        // x0 + x1 + x2 = 1, 2 x0 + 3 x1 + 4 x2 >= 3, over [0, 1]^3.
        let rows = [
            row(&[(0, 1.0), (1, 1.0), (2, 1.0)], 1.0, 1.0),
            row(&[(0, 2.0), (1, 3.0), (2, 4.0)], 3.0, f64::MAX),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let mut lp = Lp::new(&refs, &[0.0; 3], &[1.0; 3]);
        let until = Instant::now() + std::time::Duration::from_secs(60);
        // Maximising x0: x0 = 1 would give 2 < 3; the best is x0 = 1/2, x2 = 1/2.
        let x = lp.minimize(&[-1.0, 0.0, 0.0], until).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-9, "{x:?}");
        let x = lp.minimize(&[0.0, -1.0, 0.0], until).unwrap();
        assert!((x[1] - 1.0).abs() < 1e-9, "{x:?}");
        // Without x1 and x2 nothing reaches 3.
        lp.forbid(1);
        lp.forbid(2);
        assert!(lp.minimize(&[0.0; 3], until).is_none() && lp.infeasible());
        // Past its time a solve is no answer.
        assert!(lp.minimize(&[0.0; 3], Instant::now()).is_none() && !lp.infeasible());
    }
}
