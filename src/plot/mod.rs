/*!
Figures: `grundy plot KIND` draws one picture from a file another command wrote, as SVG (for
papers and the web) and PNG (for a quick look), side by side.

Data first: each kind has a small struct holding exactly what it draws ([`Histogram`],
[`RarePoints`], [`ValueCloud`], [`SatFrontier`], [`PatternMaxima`], [`Scaling`]), a loader from the JSON or TSV file
that `grundy` writes, and a [`Figure`] implementation that draws it on any plotters backend.
[`render`] draws the same figure twice, on an SVG and a bitmap backend, and writes both files
atomically.

Text is drawn with DejaVu Sans compiled into the binary (`assets/fonts/`), so a figure looks the
same on every machine and nothing depends on the fonts a cluster node happens to have.
*/

mod figures;

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::de::DeserializeOwned;

use crate::bench::SpeculativeBench;
use crate::io::{RareTable, write_atomic};
use crate::sat::periods::{PeriodResult, PeriodsFile};
use crate::stats::Stats;
use crate::values::{SparseSpace, Value};

/// Pixel size of every figure (the SVG uses the same units).
pub const SIZE: (u32, u32) = (1000, 620);

/// At most about this many common values are drawn in a value cloud; longer ranges are sampled
/// evenly (rare values are always all drawn).
pub const MAX_CLOUD_POINTS: usize = 20_000;

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Why a figure could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not {what}: {reason}")]
    Parse {
        path: String,
        what: &'static str,
        reason: String,
    },
    #[error("nothing to draw: {0}")]
    Empty(String),
    #[error("drawing failed: {0}")]
    Draw(String),
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
}

/// Result of drawing on one backend (plotters' errors are generic over the backend).
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A picture that can be drawn on any plotters backend.
pub trait Figure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static;
}

/// Counts of each value over a prefix, with the space that tells rare values from common ones.
#[derive(Clone, Debug)]
pub struct Histogram {
    pub game: String,
    pub count: u64,
    /// `None` for a position-type space: rarity then depends on the heap, not on the value.
    pub space: Option<SparseSpace>,
    pub bars: Vec<(Value, u64)>,
}

/// Rare values against their positions.
#[derive(Clone, Debug)]
pub struct RarePoints {
    pub game: String,
    pub rares: Vec<(u64, Value)>,
}

/// `G(n)` against `n` for heaps `start..start + values.len()`: every rare value, and the common
/// values of every `stride`-th heap (so a long range stays a readable, small file).
#[derive(Clone, Debug)]
pub struct ValueCloud {
    pub game: String,
    pub start: u64,
    /// One past the last heap.
    pub end: u64,
    pub stride: usize,
    /// (heap, value, rare?)
    pub points: Vec<(u64, Value, bool)>,
}

/// What is known about each period `p`: status and solve time.
#[derive(Clone, Debug)]
pub struct SatFrontier {
    pub game: String,
    pub results: Vec<PeriodResult>,
    /// For periods with a value-bound ladder beside the periods file: `(p, V)`, every pattern
    /// of the open question (of `feasible`, for a decided period) has a value of at least `V`
    /// ([`crate::sat::bounds`]).
    pub bounds: Vec<(u64, Value)>,
}

/// The largest value of each period's pattern, and how far up an open period's pattern would
/// have to reach. Why: the SAT frontier says *whether* a period was decided; this says *where*
/// its patterns live, and so how far a ladder of [`crate::sat::bounds`] still has to climb (each
/// period's point is the pattern the file holds, with the patterns of earlier runs it keeps;
/// others may reach higher or lower: for Officers ours of 24 and 26 reach 284 and 266, Riley's
/// 358 and 399).
#[derive(Clone, Debug)]
pub struct PatternMaxima {
    pub game: String,
    /// `(p, largest value)` of each pattern whose minimal period is `p` itself (a lifted
    /// pattern repeats its divisor's point).
    pub patterns: Vec<(u64, Value)>,
    /// `(p, largest value)` of each other pattern of minimal period `p` the file keeps, from
    /// earlier runs (under `earlier`): a period's patterns may reach very differently high
    /// (Officers p = 19: 484 and 388).
    pub earlier: Vec<(u64, Value)>,
    /// `(p, V)` for each period whose minimal-period question is open: a pattern of minimal
    /// period `p`, if there is one, has its largest value in `V..512` (`V = 0` without a
    /// refuted rung of its ladder).
    pub open: Vec<(u64, Value)>,
    /// `(p, V)` for each period of `patterns` with a ladder: no pattern of period `p` lies
    /// wholly below `V`. Between `V` and the point lies the least largest value any of its
    /// patterns has: how high the periods that have patterns must reach.
    pub floors: Vec<(u64, Value)>,
}

/// Values per second against threads, with the C baselines as reference levels.
#[derive(Clone, Debug)]
pub struct Scaling {
    pub n: u64,
    /// Cores of the machine that measured it, when known.
    pub cores: Option<usize>,
    /// (threads, values/s) of our generator.
    pub ours: Vec<(usize, f64)>,
    /// (name, values/s) of each baseline, drawn as a horizontal line.
    pub baselines: Vec<(String, f64)>,
}

fn read_text(path: &Path) -> Result<String, PlotError> {
    std::fs::read_to_string(path).map_err(|source| PlotError::Read {
        path: path.display().to_string(),
        source,
    })
}

fn read_json<T: DeserializeOwned>(path: &Path, what: &'static str) -> Result<T, PlotError> {
    serde_json::from_str(&read_text(path)?).map_err(|e| PlotError::Parse {
        path: path.display().to_string(),
        what,
        reason: e.to_string(),
    })
}

impl Histogram {
    /// From a stats JSON (`grundy stats --json`) or a run report (`grundy run --out`).
    pub fn read(path: &Path) -> Result<Histogram, PlotError> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Input {
            Stats(Stats),
            Report { stats: Stats },
        }
        let stats = match read_json(path, "a stats JSON or a run report")? {
            Input::Stats(s) | Input::Report { stats: s } => s,
        };
        Ok(Histogram::from_stats(&stats))
    }

    pub fn from_stats(stats: &Stats) -> Histogram {
        let space = stats
            .space
            .parse::<SparseSpace>()
            .ok()
            .filter(|s| !s.by_position);
        Histogram {
            game: stats.game.clone(),
            count: stats.count,
            space,
            bars: stats.histogram.clone(),
        }
    }
}

impl RarePoints {
    /// From a rare table in any format [`RareTable::read`] takes.
    pub fn read(path: &Path) -> Result<RarePoints, PlotError> {
        let table = RareTable::read(path).map_err(|e| PlotError::Parse {
            path: path.display().to_string(),
            what: "a rare table",
            reason: e.to_string(),
        })?;
        Ok(RarePoints {
            game: table.game.map_or_else(|| "?".into(), |g| g.to_string()),
            rares: table.rares,
        })
    }
}

impl ValueCloud {
    /// Heaps `start..start + values.len()`, at most [`MAX_CLOUD_POINTS`] of them drawn.
    pub fn new(game: &str, start: u64, values: &[Value], space: SparseSpace) -> ValueCloud {
        let stride = values.len().div_ceil(MAX_CLOUD_POINTS).max(1);
        let points = values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let n = start + i as u64;
                (n, v, space.is_rare(n as usize, v))
            })
            .filter(|&(n, _, rare)| rare || ((n - start) as usize).is_multiple_of(stride))
            .collect();
        ValueCloud {
            game: game.to_string(),
            start,
            end: start + values.len() as u64,
            stride,
            points,
        }
    }
}

impl SatFrontier {
    /// From a periods file (`grundy sat`, `results/<game>/periods.json`).
    pub fn read(path: &Path) -> Result<SatFrontier, PlotError> {
        let file: PeriodsFile = read_json(path, "a periods JSON")?;
        let mut bounds = Vec::new();
        for r in &file.results {
            // The open question of p: feasible if that is open, else primitive. Of a decided
            // p, feasible: a floor under every pattern, run as a yardstick for the open ones.
            let question = match (r.feasible.decided(), r.primitive.decided()) {
                (true, false) => "primitive",
                _ => "feasible",
            };
            let ladder = crate::sat::bounds::Ladder::path_beside(path, r.p as usize, question);
            let read = crate::sat::bounds::Ladder::read(&ladder).map_err(|e| PlotError::Parse {
                path: e.path.display().to_string(),
                what: "a bounds ladder",
                reason: e.reason,
            })?;
            bounds.extend(read.and_then(|l| l.refuted_below()).map(|v| (r.p, v)));
        }
        Ok(SatFrontier {
            game: file.game,
            results: file.results,
            bounds,
        })
    }
}

impl PatternMaxima {
    /// From a periods file and the ladders beside it (as [`SatFrontier::read`]).
    pub fn read(path: &Path) -> Result<PatternMaxima, PlotError> {
        Ok(PatternMaxima::from_frontier(&SatFrontier::read(path)?))
    }

    pub fn from_frontier(frontier: &SatFrontier) -> PatternMaxima {
        let patterns: Vec<(u64, Value)> = frontier
            .results
            .iter()
            .filter(|r| r.pattern_period == Some(r.p))
            .filter_map(|r| Some((r.p, *r.pattern.as_ref()?.iter().max()?)))
            .collect();
        let earlier = frontier
            .results
            .iter()
            .flat_map(|r| r.earlier.iter().map(move |a| (r.p, a.pattern.as_deref())))
            .filter_map(|(p, pattern)| Some((p, pattern?)))
            .filter(|&(p, x)| crate::sat::periods::minimal_period(x) as u64 == p)
            .filter_map(|(p, x)| Some((p, *x.iter().max()?)))
            .collect();
        let found = |p: u64| frontier.bounds.iter().find(|b| b.0 == p);
        let bound = |p: u64| found(p).map_or(0, |b| b.1);
        let floors = patterns
            .iter()
            .filter_map(|x| found(x.0))
            .copied()
            .collect();
        let open = frontier
            .results
            .iter()
            .filter(|r| !r.primitive.decided())
            .map(|r| (r.p, bound(r.p)))
            .collect();
        PatternMaxima {
            game: frontier.game.clone(),
            patterns,
            earlier,
            open,
            floors,
        }
    }
}

impl Scaling {
    /// From `grundy bench speculative --json`.
    pub fn read(path: &Path) -> Result<Scaling, PlotError> {
        let bench: SpeculativeBench = read_json(path, "a speculative bench JSON")?;
        Ok(Scaling::from_bench(&bench))
    }

    pub fn from_bench(bench: &SpeculativeBench) -> Scaling {
        Scaling {
            n: bench.n,
            cores: bench.cores,
            ours: bench
                .scaling
                .iter()
                .map(|(t, timing, _)| (*t, timing.values_per_sec))
                .collect(),
            baselines: vec![
                (
                    format!("{} (1 thread)", bench.single.baseline.name),
                    bench.single.baseline.values_per_sec,
                ),
                (
                    format!("{} (1 thread)", bench.verifier.baseline.name),
                    bench.verifier.baseline.values_per_sec,
                ),
            ],
        }
    }
}

/// Registers the embedded font once; plotters looks fonts up by family name.
fn font_ready() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in and known to parse (a test draws text with it).
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Draws `figure` to `STEM.svg` and `STEM.png` (both written atomically); returns the two paths.
pub fn render(figure: &impl Figure, stem: &Path) -> Result<[PathBuf; 2], PlotError> {
    font_ready();
    let draw_err = |e: Box<dyn std::error::Error>| PlotError::Draw(e.to_string());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        figure.draw(&root).map_err(draw_err)?;
        root.present().map_err(|e| PlotError::Draw(e.to_string()))?;
    }
    let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        figure.draw(&root).map_err(draw_err)?;
        root.present().map_err(|e| PlotError::Draw(e.to_string()))?;
    }
    let svg_path = stem.with_extension("svg");
    let png_path = stem.with_extension("png");
    write_atomic(&svg_path, |w| w.write_all(svg.as_bytes()))?;
    write_atomic(&png_path, |w| encode_png(&rgb, SIZE, w))?;
    Ok([svg_path, png_path])
}

fn encode_png(rgb: &[u8], (w, h): (u32, u32), out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgb)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}

impl ValueCloud {
    /// Computes `G(from..to)` of `game` with the exact generator and samples it.
    pub fn compute(
        game: &crate::Game,
        from: u64,
        to: u64,
    ) -> Result<ValueCloud, crate::values::ValueError> {
        let generator = crate::values::exact_prefix(game, to as usize)?;
        let values = &generator.values()[from.min(to) as usize..];
        Ok(ValueCloud::new(
            &game.to_string(),
            from,
            values,
            generator.space(),
        ))
    }

    /// Heaps `from..to` of a binary dump; rarity by the best value-type space of the dump.
    pub fn from_dump(dump: &crate::io::ValuesDump, from: u64, to: u64) -> ValueCloud {
        let end = dump.values.len();
        let (a, b) = (
            (from.saturating_sub(dump.start) as usize).min(end),
            (to.saturating_sub(dump.start) as usize).min(end),
        );
        let space =
            SparseSpace::best_for(&dump.values, false).map_or_else(Default::default, |s| s.0);
        ValueCloud::new(
            &dump.game.to_string(),
            dump.start + a as u64,
            &dump.values[a..b.max(a)],
            space,
        )
    }
}
