/*!
`grundy`: Grundy values of octal games, built first of all for Officers (`.6`).

Modules, one job each:
- [`game`]: octal codes and their move sets.
- [`values`]: the naive oracle, the exact rare-value generator, sparse spaces.
- [`stats`]: value statistics of a computed prefix.
- [`period`]: hash search for periods and their proof by the Guy-Smith theorem.
- [`sat`]: periods by SAT: exclusions, the one-hot encoding, witness checks.
- [`io`]: atomic writes, rare tables, value dumps.
- [`cluster`]: work split into Slurm job-array tasks, and their verdicts merged.
- [`mod@bench`]: side-by-side timing against the C baselines of `../shared/bench`.
- [`plot`]: figures (SVG and PNG) from the files the other commands write.
- [`run`]: long runs: speculate, verify, roll back, checkpoint.
- [`progress`]: progress bars on a terminal, plain lines in a pipe.
- [`interrupt`]: SIGINT and SIGTERM as a request to stop early and keep what was computed.

```
use grundy::{ExactGenerator, Game};

// Officers: G(0..20) as listed in Riley's post.
let officers: Game = "officers".parse()?;
let mut generator = ExactGenerator::new(&officers);
generator.extend_to(20)?;
assert_eq!(generator.values(), [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1]);
assert_eq!(officers.to_string(), ".6");
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/

pub mod bench;
pub mod cluster;
pub mod game;
pub mod interrupt;
pub mod io;
pub mod period;
pub mod plot;
pub mod progress;
pub mod run;
pub mod sat;
pub mod stats;
pub mod values;

pub use game::Game;
pub use values::{ExactGenerator, SparseSpace, Value};
