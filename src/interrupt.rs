/*!
A request to stop early: SIGINT (Ctrl-C) or SIGTERM, once [`install`] has been called.

Why: long work killed outright loses what it holds only in memory. A `grundy sat` campaign
holds the learned clauses of its CaDiCaL calls and the answers of the periods it has finished;
a `grundy run` holds up to one checkpoint interval of values. Slurm sends SIGTERM at a job's
time limit and kills some 30 s later (`KillWait`), and a user at a terminal presses Ctrl-C. With
the request up, long work ends as it would at its own time limit: `grundy sat` stops its solvers
and local searches (the period says "searched ..., interrupted"), writes its lemma files and
merges what it has into the periods file; `grundy run` writes its checkpoint. A second signal,
a second or more after the first ([`SECOND_SIGNAL_AFTER`]), ends the process at once with exit
status 130, for a graceful stop that hangs; signals closer together are one request. Why:
`timeout` (GNU coreutils) sends its signal to the command and then to the whole process group,
so grundy receives it twice within microseconds. Read as two requests, the second killed a chain
proof outright, mid-check, with no last line and its proof files left (session 51, p = 39,
under `timeout -s INT`), where one request ends it in seconds with both.

Invariant: the library only reads the flag. Only the binary installs the handlers, so a program
or test using the library keeps the default behaviour of these signals unless it opts in.
*/

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Up once a handled signal has arrived; never lowered.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Up [`SECOND_SIGNAL_AFTER`] after [`REQUESTED`] rose (raised by the thread [`install`]
/// starts); from then on a signal ends the process at once.
static SECOND_ENDS: AtomicBool = AtomicBool::new(false);

/// How long after the first signal a second one ends the process: signals closer together are
/// one request sent twice (`timeout`, a scheduler signalling each process of a job), where a
/// person who presses Ctrl-C again means it.
pub const SECOND_SIGNAL_AFTER: Duration = Duration::from_secs(1);

/// The exit status of a run that stopped because it was asked to (128 + SIGINT, as shells do).
pub const EXIT_STATUS: u8 = 130;

/// Handles SIGINT and SIGTERM from now on: the first raises the request, a second at least
/// [`SECOND_SIGNAL_AFTER`] later exits at once.
///
/// # Errors
/// The operating system refused to install a handler.
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM] {
        // Order matters: the shutdown runs first and fires only once armed, a while after the
        // request rose, so never on the first signal nor on its echo.
        signal_hook::flag::register_conditional_shutdown(signal, EXIT_STATUS.into(), &SECOND_ENDS)?;
        signal_hook::flag::register(signal, &REQUESTED)?;
    }
    // Arms the shutdown a while after the first request; a thread that sleeps between looks
    // (a signal handler may do next to nothing, so it cannot time the signals itself).
    std::thread::spawn(|| {
        let armed = AtomicBool::new(false);
        relay(&armed);
        std::thread::sleep(SECOND_SIGNAL_AFTER);
        SECOND_ENDS.store(true, Ordering::Relaxed);
    });
    Ok(())
}

/// Whether a stop has been requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Raises `stop` as soon as a stop is requested; returns once `stop` is up, whoever raised it.
/// Run it on a thread beside work that already ends when `stop` rises (solvers' terminators,
/// local search), so that work needs no second flag to watch.
pub fn relay(stop: &AtomicBool) {
    relay_when(requested, stop);
}

/// Raises `stop` as soon as `asked` says so (another flag, a stop request); returns once `stop`
/// is up, whoever raised it, so the owner of `stop` ends the relay by raising it.
pub fn relay_when(asked: impl Fn() -> bool, stop: &AtomicBool) {
    // 50 ms: far below Slurm's grace period, and the thread costs nothing between looks.
    while !stop.load(Ordering::Relaxed) {
        if asked() {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `work` with a flag that rises on a stop request (relayed on a thread beside it), for
/// work that ends when the flag rises; the relay ends when `work` returns.
pub fn with_stop_flag<T>(work: impl FnOnce(&AtomicBool) -> T) -> T {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| relay(&stop));
        let out = work(&stop);
        stop.store(true, Ordering::Relaxed);
        out
    })
}
