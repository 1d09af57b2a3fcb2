//! What the SAT probes share: Officers' encoding of a period, a fresh CaDiCaL holding some
//! clauses, and a solve with a time limit. Each probe uses some of them.
#![allow(dead_code)]

use grundy::sat::encode::PeriodEncoding;
use grundy::{ExactGenerator, Game};
use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
use rustsat::types::{Clause, Lit};
use rustsat_cadical::CaDiCaL;
use std::time::{Duration, Instant};

/// The encoding of Officers period `p`, with the rare table of its first 2^16 values (all 1584
/// known rare values).
pub fn officers_encoding(p: usize) -> PeriodEncoding {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    PeriodEncoding::new(&Game::officers(), g.space(), &rares, p).unwrap()
}

/// The largest-first encoding of Officers period `p` and the units that ask the piece `s[0]` =
/// `top` of the band `from..below`, as `grundy sat bounds --pieces` asks it.
pub fn officers_piece(p: usize, from: u16, below: u16, top: u16) -> (PeriodEncoding, Vec<i32>) {
    use grundy::sat::bounds::{Band, band_tops, floor_unit, rung_units};
    let mut e = officers_encoding(p);
    e.put_largest_first();
    let byte = *band_tops(&e, Band { from, below })
        .iter()
        .find(|&&c| e.expand(&[c])[0] == top)
        .expect("TOP is a common value of the band");
    let mut units = rung_units(&e, below).unwrap();
    units.extend(floor_unit(&e, from));
    units.push(e.x(0, usize::from(byte)));
    (e, units)
}

/// The option shifts of Officers period `p` (see `option_shifts`), from the same rare table:
/// what the tabu walk of `grundy::sat::local` runs on.
pub fn officers_shifts(p: usize) -> Vec<Vec<u8>> {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    grundy::sat::encode::option_shifts(&Game::officers(), g.space(), &rares, p)
        .unwrap()
        .1
}

/// A new CaDiCaL with `clauses` (DIMACS literals).
pub fn fresh(clauses: &[Vec<i32>]) -> CaDiCaL<'static, 'static> {
    let mut solver = CaDiCaL::default();
    for c in clauses {
        let clause: Clause = c.iter().map(|&l| Lit::from_ipasir(l).unwrap()).collect();
        solver.add_clause(clause).unwrap();
    }
    solver
}

/// Makes `solver`'s next call stop `secs` seconds from now.
pub fn stop_after(solver: &mut CaDiCaL<'static, 'static>, secs: f64) {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    solver.attach_terminator(move || {
        if Instant::now() >= deadline {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
}

/// Solves for at most `secs` seconds: the answer and the seconds it took.
pub fn run(solver: &mut CaDiCaL<'static, 'static>, secs: f64) -> (SolverResult, f64) {
    let t = Instant::now();
    stop_after(solver, secs);
    let r = solver.solve().unwrap();
    (r, t.elapsed().as_secs_f64())
}

/// CaDiCaL options from `OPTS`-style text (`"elim=0,walkeffort=400"`).
pub fn parse_options(opts: &str) -> Vec<(&str, i32)> {
    opts.split(',')
        .filter(|o| !o.is_empty())
        .map(|o| {
            let (k, v) = o.split_once('=').unwrap();
            (k, v.parse().unwrap())
        })
        .collect()
}

/// The preset named by `PRESET` (0 or unset: default, 1: sat, 2: unsat).
pub fn env_preset() -> grundy::sat::solve::Preset {
    grundy::sat::solve::Preset::nth(std::env::var("PRESET").map_or(0, |p| p.parse().unwrap()))
}

/// Solves `cnf` (an encoding of `e`, perhaps with clauses added) as `run` says, printing the
/// pattern of a model: "sat", "unsat" or "timeout", and the seconds it took.
pub fn solve_and_say(
    e: &PeriodEncoding,
    cnf: &grundy::sat::Cnf,
    timeout: Duration,
    run: &grundy::sat::solve::CadicalRun<'_>,
) -> (&'static str, f64) {
    use grundy::sat::solve::{Answer, solve_cadical_with};
    let t = Instant::now();
    let what = match solve_cadical_with(cnf, Some(timeout), run).unwrap() {
        Answer::Sat(model) => {
            println!("pattern {:?}", e.decode(&model));
            "sat"
        }
        Answer::Unsat => "unsat",
        Answer::Timeout => "timeout",
    };
    (what, t.elapsed().as_secs_f64())
}

/// [`solve_and_say`] with a seed and the settings of the environment: `PRESET` (see
/// [`env_preset`]) and `OPTS` (see [`parse_options`]). Also returns the settings as text.
pub fn solve_with_env_settings(
    e: &PeriodEncoding,
    cnf: &grundy::sat::Cnf,
    timeout: Duration,
    seed: u32,
) -> (&'static str, f64, String) {
    let opts = std::env::var("OPTS").unwrap_or_default();
    let options = parse_options(&opts);
    let preset = env_preset();
    let run = grundy::sat::solve::CadicalRun {
        seed,
        preset,
        options: &options,
        ..Default::default()
    };
    let (what, seconds) = solve_and_say(e, cnf, timeout, &run);
    (
        what,
        seconds,
        format!("seed={seed} preset {} {opts}", preset.name()),
    )
}
