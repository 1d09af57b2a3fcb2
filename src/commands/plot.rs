//! `grundy plot`: figures from results files.

use anyhow::{Result, bail};
use grundy::io::ValuesDump;

use crate::{PlotKind, parse_game};

pub(crate) fn run_plot(kind: PlotKind) -> Result<()> {
    use grundy::plot::{
        self, Histogram, PatternMaxima, RarePoints, SatFrontier, Scaling, ValueCloud,
    };
    let written = match kind {
        PlotKind::Histogram { stats, out } => plot::render(&Histogram::read(&stats)?, &out)?,
        PlotKind::Rares { table, out } => plot::render(&RarePoints::read(&table)?, &out)?,
        PlotKind::Sat { periods, out } => plot::render(&SatFrontier::read(&periods)?, &out)?,
        PlotKind::Maxima { periods, out } => plot::render(&PatternMaxima::read(&periods)?, &out)?,
        PlotKind::Scaling { bench, out } => plot::render(&Scaling::read(&bench)?, &out)?,
        PlotKind::Values {
            game,
            from,
            to,
            values,
            out,
        } => {
            if from >= to {
                bail!("bad range: --from {from} must be below --to {to}");
            }
            let cloud = match (values, game) {
                (Some(path), _) => ValueCloud::from_dump(&ValuesDump::read_bin(&path)?, from, to),
                (None, Some(game)) => ValueCloud::compute(&parse_game(&game)?, from, to)?,
                (None, None) => bail!("plot values needs a GAME or --values DUMP"),
            };
            if cloud.points.is_empty() {
                bail!("no heaps in [{from}, {to}) to draw");
            }
            plot::render(&cloud, &out)?
        }
    };
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(())
}
