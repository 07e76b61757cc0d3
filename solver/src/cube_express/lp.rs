//! Integer programs and the backends that solve them, chosen at run time: the pure-Rust microlp
//! (always built), lp_solve (with the `lpsolve` cargo feature: built from its bundled C source,
//! so it needs a C compiler) and CBC (with the `cbc` cargo feature and the system library). Every program
//! in signalbox goes through [`solve`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use good_lp::{
    Constraint, Expression, IntoAffineExpression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable,
    variable,
};

/// An integer-programming backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// microlp, pure Rust (default).
    #[default]
    Microlp,
    /// CBC (COIN-OR), when built with the `cbc` feature.
    Cbc,
    /// lp_solve, when built with the `lpsolve` feature.
    LpSolve,
}

impl Backend {
    /// The backends compiled into this build.
    pub fn available() -> Vec<Backend> {
        let mut out = vec![Backend::Microlp];
        if cfg!(feature = "cbc") {
            out.push(Backend::Cbc);
        }
        if cfg!(feature = "lpsolve") {
            out.push(Backend::LpSolve);
        }
        out
    }

    /// The backend's name, as `--lp-backend` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Microlp => "microlp",
            Backend::Cbc => "cbc",
            Backend::LpSolve => "lpsolve",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "microlp" => Ok(Backend::Microlp),
            "cbc" => Ok(Backend::Cbc),
            "lpsolve" => Ok(Backend::LpSolve),
            _ => Err(format!("unknown integer-programming backend {s:?}: expected microlp, lpsolve or cbc")),
        }
    }
}

/// Why a program was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LpError {
    /// No solution satisfies the constraints.
    #[error("the program is infeasible")]
    Infeasible,
    /// The time limit ran out before any solution was found.
    #[error("the time limit ran out before a solution was found")]
    TimeLimit,
    /// The backend is not compiled in.
    #[error("this build has no {0} backend (build with `--features {0}`)")]
    Unavailable(Backend),
    /// The backend failed.
    #[error("the {backend} backend failed: {message}")]
    Failed {
        /// Which backend.
        backend: Backend,
        /// Its message.
        message: String,
    },
}

/// The most terms an expression keeps before [`Program::name`] names it. Measured on the Cube
/// Express turn programs: any threshold from 8 to 24 gives the same times, naming every
/// expression of more than 2 terms is slower on the small programs (more rows), and naming none
/// is 1.7 times slower on the full board (39,000 non-zero coefficients instead of 6,000).
pub const NAMED_ABOVE: usize = 12;

/// The kind of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 0 or 1.
    Binary,
    /// An integer from 0 to the bound.
    Integer(u32),
    /// A real number, unbounded: a name for an expression of other variables
    /// ([`Program::name`]).
    Real,
}

/// A maximisation program under construction, integer or its LP relaxation.
#[derive(Clone)]
pub struct Program {
    vars: ProblemVariables,
    defined: Vec<Variable>,
    /// Each variable's kind, in order (to build the relaxation over the same variables).
    kinds: Vec<Kind>,
    constraints: Vec<Constraint>,
    relaxed: bool,
    /// A constraint without variables that does not hold: the program is infeasible.
    contradiction: bool,
    /// Each variable's number, and the rows already added (a repeated row is left out).
    numbers: std::collections::HashMap<Variable, usize>,
    rows: std::collections::HashSet<Vec<(usize, u64)>>,
}

impl Program {
    /// An empty integer program.
    pub fn new() -> Program {
        Program {
            vars: ProblemVariables::new(),
            defined: Vec::new(),
            kinds: Vec::new(),
            constraints: Vec::new(),
            relaxed: false,
            contradiction: false,
            numbers: std::collections::HashMap::new(),
            rows: std::collections::HashSet::new(),
        }
    }

    /// A new variable (continuous over the same range in a relaxation).
    pub fn var(&mut self, kind: Kind) -> Variable {
        let v = self.vars.add(definition(kind, self.relaxed));
        self.numbers.insert(v, self.defined.len());
        self.defined.push(v);
        self.kinds.push(kind);
        v
    }

    /// The LP relaxation: the same variables (the same handles, so expressions over this
    /// program's variables serve it too) made continuous over the same ranges, and the same
    /// constraints. Its optimum bounds the integer optimum from above.
    pub fn relaxation(&self) -> Program {
        let mut vars = ProblemVariables::new();
        for (&kind, &v) in self.kinds.iter().zip(&self.defined) {
            let w = vars.add(definition(kind, true));
            debug_assert_eq!(w, v, "variables are numbered in the order they are added");
        }
        Program {
            vars,
            defined: self.defined.clone(),
            kinds: self.kinds.clone(),
            constraints: self.constraints.clone(),
            relaxed: true,
            contradiction: self.contradiction,
            numbers: self.numbers.clone(),
            rows: self.rows.clone(),
        }
    }

    /// A variable equal to `e`, when `e` has more than [`NAMED_ABOVE`] terms (otherwise `e`
    /// itself). A running quantity that every later row would repeat term by term (a resource
    /// held along a turn's timeline) is named once this way, which keeps the rows short: the
    /// simplex's work grows with the non-zero coefficients more than with the variables.
    pub fn name(&mut self, e: Expression) -> Expression {
        if (&e).linear_coefficients().filter(|&(_, c)| c != 0.0).count() <= NAMED_ABOVE {
            return e;
        }
        let v = self.var(Kind::Real);
        self.eq(v, e);
        v.into()
    }

    /// Adds `a <= b`. A comparison without variables is checked here and never reaches the
    /// backend (an empty row makes some backends' factorisations singular).
    pub fn leq(&mut self, a: impl IntoAffineExpression, b: impl IntoAffineExpression) {
        self.compare(a.into_expression() - b.into_expression(), Compare::Leq);
    }

    /// Adds `a >= b` (see [`Program::leq`]).
    pub fn geq(&mut self, a: impl IntoAffineExpression, b: impl IntoAffineExpression) {
        self.compare(b.into_expression() - a.into_expression(), Compare::Leq);
    }

    /// Adds `a == b` (see [`Program::leq`]).
    pub fn eq(&mut self, a: impl IntoAffineExpression, b: impl IntoAffineExpression) {
        self.compare(a.into_expression() - b.into_expression(), Compare::Eq);
    }

    fn compare(&mut self, d: Expression, how: Compare) {
        let constant = d.constant();
        let mut row: Vec<(usize, u64)> = (&d)
            .linear_coefficients()
            .filter(|&(_, c)| c != 0.0)
            .map(|(v, c)| (self.numbers.get(&v).copied().unwrap_or(usize::MAX), c.to_bits()))
            .collect();
        let has_variables = !row.is_empty();
        row.sort_unstable();
        row.push((usize::MAX - 1, constant.to_bits()));
        row.push((usize::MAX - 2, u64::from(matches!(how, Compare::Eq))));
        if !self.rows.insert(row) {
            return;
        }
        if !has_variables {
            let holds = match how {
                Compare::Leq => constant <= 1e-9,
                Compare::Eq => constant.abs() <= 1e-9,
            };
            self.contradiction |= !holds;
            return;
        }
        self.constraints.push(match how {
            Compare::Leq => d.leq(0.0),
            Compare::Eq => d.eq(0.0),
        });
    }
}

impl Default for Program {
    fn default() -> Program {
        Program::new()
    }
}

/// A variable's definition: integer over its range, or continuous over it when `relaxed`.
fn definition(kind: Kind, relaxed: bool) -> good_lp::VariableDefinition {
    match (kind, relaxed) {
        (Kind::Binary, false) => variable().binary(),
        (Kind::Binary, true) => variable().min(0).max(1),
        (Kind::Integer(max), false) => variable().integer().min(0).max(max),
        (Kind::Integer(max), true) => variable().min(0).max(max),
        (Kind::Real, _) => variable(),
    }
}

#[derive(Clone, Copy)]
enum Compare {
    Leq,
    Eq,
}

/// A solved program: the value of every variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    values: std::collections::HashMap<Variable, f64>,
}

impl Solved {
    /// The value of `v`.
    pub fn value(&self, v: Variable) -> f64 {
        self.values.get(&v).copied().unwrap_or(0.0)
    }

    /// The value of `v` rounded to the nearest integer (for integer variables).
    pub fn int(&self, v: Variable) -> i64 {
        self.value(v).round() as i64
    }

    /// The value of an expression.
    pub fn eval(&self, e: &Expression) -> f64 {
        e.eval_with(&Values(self))
    }
}

struct Values<'a>(&'a Solved);

impl Solution for Values<'_> {
    fn status(&self) -> good_lp::SolutionStatus {
        good_lp::SolutionStatus::Optimal
    }
    fn value(&self, v: Variable) -> f64 {
        self.0.value(v)
    }
}

fn collect<S: Solution>(s: &S, defined: &[Variable]) -> Solved {
    Solved { values: defined.iter().map(|&v| (v, s.value(v))).collect() }
}

fn failed(backend: Backend, e: ResolutionError) -> LpError {
    match e {
        ResolutionError::Infeasible => LpError::Infeasible,
        other if other.to_string().contains("Time limit") => LpError::TimeLimit,
        other => LpError::Failed { backend, message: other.to_string() },
    }
}

/// [`solve`], with an infeasible program as `Ok(None)`.
pub fn solve_feasible(
    program: Program,
    objective: Expression,
    backend: Backend,
    time_limit: Option<Duration>,
) -> Result<Option<Solved>, LpError> {
    match solve(program, objective, backend, time_limit) {
        Ok(solved) => Ok(Some(solved)),
        Err(LpError::Infeasible) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Maximises `objective` over `program` with `backend`, within `time_limit` if given: the one
/// place a backend is chosen.
pub fn solve(
    program: Program,
    objective: Expression,
    backend: Backend,
    time_limit: Option<Duration>,
) -> Result<Solved, LpError> {
    let Program { vars, defined, constraints, contradiction, .. } = program;
    if contradiction {
        return Err(LpError::Infeasible);
    }
    let problem = vars.maximise(objective);
    match backend {
        Backend::Microlp => {
            let mut model = problem.using(good_lp::microlp).with_all(constraints);
            if let Some(t) = time_limit {
                model = good_lp::WithTimeLimit::with_time_limit(model, t.as_secs_f64());
            }
            model.solve().map(|s| collect(&s, &defined)).map_err(|e| failed(backend, e))
        }
        #[cfg(feature = "cbc")]
        Backend::Cbc => {
            let mut model = problem.using(good_lp::coin_cbc).with_all(constraints);
            if let Some(t) = time_limit {
                model = good_lp::WithTimeLimit::with_time_limit(model, t.as_secs_f64());
            }
            model.solve().map(|s| collect(&s, &defined)).map_err(|e| failed(backend, e))
        }
        #[cfg(not(feature = "cbc"))]
        Backend::Cbc => {
            let _ = (problem, defined, constraints);
            Err(LpError::Unavailable(Backend::Cbc))
        }
        // lp_solve has no time limit through good_lp: the limit is not applied.
        #[cfg(feature = "lpsolve")]
        Backend::LpSolve => problem
            .using(good_lp::lp_solve)
            .with_all(constraints)
            .solve()
            .map(|s| collect(&s, &defined))
            .map_err(|e| failed(backend, e)),
        #[cfg(not(feature = "lpsolve"))]
        Backend::LpSolve => Err(LpError::Unavailable(Backend::LpSolve)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// max 5x + 4y subject to 6x + 4y <= 9 over binaries: the integer optimum is 5 (x alone),
    /// the relaxation's 49/6 (y = 1, x = 5/6). The relaxation reads the same variable handles.
    /// On every backend of the build.
    #[test]
    fn the_relaxation_bounds_the_integer_optimum_over_the_same_variables() {
        for backend in Backend::available() {
            let mut p = Program::new();
            let (x, y) = (p.var(Kind::Binary), p.var(Kind::Binary));
            p.leq(6.0 * x + 4.0 * y, 9.0);
            let objective: Expression = 5.0 * x + 4.0 * y;
            let relaxed = solve(p.relaxation(), objective.clone(), backend, None).expect("feasible");
            let integer = solve(p, objective.clone(), backend, None).expect("feasible");
            assert_eq!(integer.eval(&objective).round() as i64, 5, "{backend}");
            assert_eq!((integer.int(x), integer.int(y)), (1, 0), "{backend}");
            let r = relaxed.eval(&objective);
            assert!((r - 49.0 / 6.0).abs() < 1e-6, "{backend}: relaxation {r}");
            assert!((relaxed.value(x) - 5.0 / 6.0).abs() < 1e-6, "{backend}");
        }
    }

    /// A backend not in the build is named, never a panic.
    #[test]
    fn a_backend_not_built_is_unavailable() {
        for backend in [Backend::Cbc, Backend::LpSolve] {
            if Backend::available().contains(&backend) {
                continue;
            }
            let mut p = Program::new();
            let x = p.var(Kind::Binary);
            let objective: Expression = 1.0 * x;
            assert_eq!(solve(p, objective, backend, None).err(), Some(LpError::Unavailable(backend)));
        }
    }
}
