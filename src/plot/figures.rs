//! How each figure is drawn. Every figure: white background, caption naming the game and the
//! data, labelled axes, a legend where colours mean something.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    DrawResult, Figure, Histogram, PatternMaxima, RarePoints, SatFrontier, Scaling, ValueCloud,
};
use crate::sat::periods::Status;

const COMMON: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
const RARE: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const SAT: RGBColor = RGBColor(0x2c, 0xa0, 0x2c);
const UNSAT: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const EXCLUDED: RGBColor = RGBColor(0x99, 0x99, 0x99);
const TIMEOUT: RGBColor = RGBColor(0xff, 0x7f, 0x0e);
const BASELINES: [RGBColor; 3] = [
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0x17, 0xbe, 0xcf),
];

const FONT: &str = "sans-serif";

fn caption_style() -> TextStyle<'static> {
    (FONT, 26).into_font().into()
}

/// Legend box in `position`, the same look for every figure.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 17))
        .draw()?;
    Ok(())
}

fn swatch(color: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled())
}

fn dot(style: ShapeStyle) -> impl Fn((i32, i32)) -> Circle<(i32, i32), i32> {
    move |(x, y)| Circle::new((x + 7, y), 4, style)
}

/// A legend key for a line: a short stroke in its style.
fn line_key(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 14, y)], style)
}

/// How many labels a period axis up to `max_p` gets: every period up to 40, then about one in
/// five (80 labels side by side overlap).
fn period_labels(max_p: f64) -> usize {
    let periods = max_p as usize;
    if periods <= 40 { periods } else { periods / 5 }
}

/// An axis label: integers without a decimal point, small numbers with as few digits as needed.
fn tidy(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Labels for an axis of counts (threads, periods): integers only.
fn whole(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// Mesh with the axis descriptions and the fonts every figure uses.
macro_rules! mesh {
    ($chart:expr, $x:expr, $y:expr) => {
        $chart
            .configure_mesh()
            .x_desc($x)
            .y_desc($y)
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 19))
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&|x| tidy(*x))
            .y_label_formatter(&|y| tidy(*y))
    };
}

impl Figure for Histogram {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let max_value = self.bars.iter().map(|b| b.0).max().unwrap_or(0) as f64;
        let max_count = self.bars.iter().map(|b| b.1).max().unwrap_or(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: how often each value occurs in G(0..{})",
                    self.game, self.count
                ),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(90)
            .build_cartesian_2d(-1.0..max_value + 1.0, (0.8..max_count * 3.0).log_scale())?;
        mesh!(chart, "value G(n)", "heaps with this value (log scale)").draw()?;
        let rare = |v: u16| self.space.is_some_and(|s| s.is_rare(0, v));
        let width = (0.4f64).min(0.5 * 600.0 / (max_value + 1.0)).max(0.3);
        let bars = |want_rare: bool, color: RGBColor| {
            self.bars
                .iter()
                .filter(move |(v, _)| rare(*v) == want_rare)
                .map(move |&(v, c)| {
                    let v = f64::from(v);
                    Rectangle::new([(v - width, 0.8), (v + width, c as f64)], color.filled())
                })
        };
        let common_label = if self.space.is_some() {
            "common values"
        } else {
            "values"
        };
        chart
            .draw_series(bars(false, COMMON))?
            .label(common_label)
            .legend(swatch(COMMON));
        if let Some(space) = self.space {
            chart
                .draw_series(bars(true, RARE))?
                .label(format!("rare values (space {space})"))
                .legend(swatch(RARE));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

impl Figure for RarePoints {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let last = self.rares.last().map_or(1, |r| r.0).max(1) as f64;
        let max_value = self.rares.iter().map(|r| r.1).max().unwrap_or(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: the {} rare values, the last at heap {}",
                    self.game,
                    self.rares.len(),
                    last
                ),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..last * 1.03, 0.0..max_value * 1.06 + 1.0)?;
        mesh!(chart, "heap n", "rare value G(n)").draw()?;
        chart
            .draw_series(
                self.rares
                    .iter()
                    .map(|&(n, v)| Circle::new((n as f64, f64::from(v)), 3, RARE.filled())),
            )?
            .label("rare value")
            .legend(dot(RARE.filled()));
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

impl Figure for ValueCloud {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let (first, last) = (self.start as f64, self.end.saturating_sub(1) as f64);
        let max_value = self.points.iter().map(|p| p.1).max().unwrap_or(1) as f64;
        let sampled = if self.stride > 1 {
            format!(" (common values: one heap in {})", self.stride)
        } else {
            String::new()
        };
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: G(n) for {} <= n < {}{sampled}",
                    self.game, self.start, self.end
                ),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(70)
            .build_cartesian_2d(first..last.max(first + 1.0), 0.0..max_value * 1.06 + 1.0)?;
        mesh!(chart, "heap n", "G(n)").draw()?;
        let radius = if self.points.len() > 5000 { 1 } else { 2 };
        let series = |rare: bool, color: RGBColor, r: i32| {
            self.points
                .iter()
                .filter(move |p| p.2 == rare)
                .map(move |&(n, v, _)| Circle::new((n as f64, f64::from(v)), r, color.filled()))
        };
        chart
            .draw_series(series(false, COMMON, radius))?
            .label("common")
            .legend(dot(COMMON.filled()));
        chart
            .draw_series(series(true, RARE, radius + 1))?
            .label("rare")
            .legend(dot(RARE.filled()));
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

fn status_color(status: Status) -> RGBColor {
    match status {
        Status::Sat => SAT,
        Status::Unsat => UNSAT,
        Status::Excluded => EXCLUDED,
        Status::Timeout => TIMEOUT,
    }
}

impl Figure for SatFrontier {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        const FLOOR: f64 = 0.01;
        root.fill(&WHITE)?;
        let max_p = self.results.iter().map(|r| r.p).max().unwrap_or(1) as f64;
        let top = self
            .results
            .iter()
            .map(|r| r.campaign_seconds().max(r.timeout_seconds.unwrap_or(0.0)))
            .fold(1.0, f64::max)
            * 4.0;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("{}: can p be the minimal period? (SAT, per p)", self.game),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(90)
            .build_cartesian_2d(0.5..max_p + 0.5, (FLOOR..top).log_scale())?;
        // An open period's bar is its whole campaign (every run kept under `earlier`), so the
        // figure shows the effort behind "undecided", not only the last run.
        mesh!(chart, "period p", "seconds, all runs of p (log scale)")
            .x_labels(period_labels(max_p))
            .x_label_formatter(&whole)
            .draw()?;
        self.draw_bars(&mut chart, FLOOR)?;
        self.draw_bounds(&mut chart, FLOOR)?;
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

impl SatFrontier {
    /// One bar a period, as high as all its runs took, in the colour of its status; a marker
    /// above where feasibility differs (a lifted pattern of a divisor).
    fn draw_bars<'a, DB: DrawingBackend + 'a, CT: CoordTranslate<From = (f64, f64)>>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
        floor: f64,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        for status in [
            Status::Sat,
            Status::Unsat,
            Status::Excluded,
            Status::Timeout,
        ] {
            let color = status_color(status);
            let bars = self
                .results
                .iter()
                .filter(|r| r.primitive == status)
                .map(|r| {
                    let p = r.p as f64;
                    let height = r.campaign_seconds().max(floor * 2.0);
                    Rectangle::new([(p - 0.35, floor), (p + 0.35, height)], color.filled())
                });
            let name = match status {
                Status::Sat => "primitive: pattern found",
                Status::Unsat => "primitive: impossible (UNSAT)",
                Status::Excluded => "excluded by a losing position",
                Status::Timeout => "undecided (timeout)",
            };
            chart.draw_series(bars)?.label(name).legend(swatch(color));
        }
        // Where feasibility differs (a lifted pattern of a divisor), mark it above the bar.
        chart
            .draw_series(
                self.results
                    .iter()
                    .filter(|r| r.feasible != r.primitive)
                    .map(|r| {
                        let y = r.campaign_seconds().max(floor * 2.0) * 1.8;
                        TriangleMarker::new((r.p as f64, y), 7, status_color(r.feasible).filled())
                    }),
            )?
            .label("feasible, if that differs (lifted)")
            .legend(|(x, y)| TriangleMarker::new((x + 7, y), 7, SAT.filled()));
        Ok(())
    }

    /// A value bound of an open period, written upwards from the foot of its bar (the bars
    /// stand too close for text across, and the legend covers their tops).
    fn draw_bounds<'a, DB: DrawingBackend + 'a, CT: CoordTranslate<From = (f64, f64)>>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
        floor: f64,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let upwards = ("sans-serif", 13)
            .into_font()
            .transform(FontTransform::Rotate270)
            .color(&BLACK);
        if !self.bounds.is_empty() {
            chart
                .draw_series(self.bounds.iter().map(|&(p, v)| {
                    let at = (p as f64 - 0.3, floor * 1.3);
                    Text::new(format!(">={v}"), at, upwards.clone())
                }))?
                .label(">=V: every pattern has a value of at least V (sat bounds)")
                .legend(|(x, y)| Text::new(">=V", (x - 4, y - 7), ("sans-serif", 13)));
        }
        Ok(())
    }
}

impl Figure for PatternMaxima {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        // The encoding's values are common values below 512 (one byte each), so 512 is the
        // ceiling of every open range; 256 is where the byte's top bit starts.
        const CEILING: f64 = 512.0;
        root.fill(&WHITE)?;
        let ps = self
            .patterns
            .iter()
            .map(|x| x.0)
            .chain(self.open.iter().map(|x| x.0));
        let max_p = ps.max().unwrap_or(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: the largest value of a pattern of minimal period p",
                    self.game
                ),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(90)
            .build_cartesian_2d(0.5..max_p + 0.5, 0.0..CEILING + 150.0)?;
        // (The room above the ceiling holds the legend, clear of the open ranges.)
        mesh!(chart, "period p", "largest value of the pattern")
            .x_labels(period_labels(max_p))
            .y_labels(12)
            .x_label_formatter(&whole)
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(0.5, 256.0), (max_p + 0.5, 256.0)],
            BLACK.mix(0.4).stroke_width(1),
        ))?;
        let open = TIMEOUT.mix(0.45);
        chart
            .draw_series(self.open.iter().map(|&(p, v)| {
                let p = p as f64;
                Rectangle::new([(p - 0.3, f64::from(v)), (p + 0.3, CEILING)], open.filled())
            }))?
            .label("open: where its largest value would lie (floor from sat bounds)")
            .legend(swatch(TIMEOUT));
        self.draw_floors(&mut chart)?;
        self.draw_points(&mut chart)?;
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

impl PatternMaxima {
    /// A solved period's floor: a bar from it up to the pattern found, so the open ranges
    /// can be read against how high the periods with patterns had to reach.
    fn draw_floors<'a, DB: DrawingBackend + 'a, CT: CoordTranslate<From = (f64, f64)>>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let point = |p: u64| {
            self.patterns
                .iter()
                .find(|x| x.0 == p)
                .map_or(0.0, |x| f64::from(x.1))
        };
        const FLOOR_GREY: RGBColor = RGBColor(170, 170, 170);
        if !self.floors.is_empty() {
            chart
                .draw_series(self.floors.iter().map(|&(p, v)| {
                    let (x, top) = (p as f64, point(p));
                    Rectangle::new(
                        [(x - 0.12, f64::from(v)), (x + 0.12, top)],
                        FLOOR_GREY.filled(),
                    )
                }))?
                .label("solved: no pattern below the bar's foot (sat bounds)")
                .legend(swatch(FLOOR_GREY));
        }
        Ok(())
    }

    /// The pattern found for each period, odd and even periods in their own colours, and the
    /// earlier patterns the file keeps as rings.
    fn draw_points<'a, DB: DrawingBackend + 'a, CT: CoordTranslate<From = (f64, f64)>>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        let odd_color = BASELINES[0];
        for (odd, color, name) in [(false, COMMON, "even p"), (true, odd_color, "odd p")] {
            chart
                .draw_series(
                    self.patterns
                        .iter()
                        .filter(|x| (x.0 % 2 == 1) == odd)
                        .map(|&(p, v)| Circle::new((p as f64, f64::from(v)), 5, color.filled())),
                )?
                .label(format!("pattern found, {name}"))
                .legend(dot(color.filled()));
        }
        if !self.earlier.is_empty() {
            chart
                .draw_series(self.earlier.iter().map(|&(p, v)| {
                    Circle::new((p as f64, f64::from(v)), 5, BLACK.stroke_width(1))
                }))?
                .label("an earlier pattern of the same p")
                .legend(dot(BLACK.stroke_width(1)));
        }
        Ok(())
    }
}

impl Figure for Scaling {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let max_t = self.ours.iter().map(|o| o.0).max().unwrap_or(1) as f64;
        let one = self.ours.iter().find(|o| o.0 == 1).map_or(0.0, |o| o.1);
        let top = self
            .ours
            .iter()
            .map(|o| o.1)
            .chain(self.baselines.iter().map(|b| b.1))
            .fold(one * max_t, f64::max)
            * 1.1
            / 1e6;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "Officers, speculative generator: {} values{}",
                    self.n,
                    self.cores
                        .map_or(String::new(), |c| format!(", {c}-core machine"))
                ),
                caption_style(),
            )
            .margin(20)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(0.8..max_t + 0.2, 0.0..top)?;
        mesh!(chart, "threads", "million values per second")
            .x_labels(2 * max_t as usize + 1)
            .x_label_formatter(&whole)
            .draw()?;
        if one > 0.0 {
            chart
                .draw_series(LineSeries::new(
                    [(1.0, one / 1e6), (max_t, one * max_t / 1e6)],
                    EXCLUDED.stroke_width(2),
                ))?
                .label("ideal: threads x one thread")
                .legend(line_key(EXCLUDED.stroke_width(2)));
        }
        let ours: Vec<(f64, f64)> = self
            .ours
            .iter()
            .map(|&(t, v)| (t as f64, v / 1e6))
            .collect();
        chart
            .draw_series(LineSeries::new(ours.clone(), COMMON.stroke_width(3)))?
            .label("grundy")
            .legend(line_key(COMMON.stroke_width(3)));
        chart.draw_series(ours.iter().map(|&p| Circle::new(p, 5, COMMON.filled())))?;
        for (i, (name, rate)) in self.baselines.iter().enumerate() {
            let style = BASELINES[i % BASELINES.len()].stroke_width(2);
            let level = [(0.8, rate / 1e6), (max_t + 0.2, rate / 1e6)];
            chart
                .draw_series(LineSeries::new(level, style))?
                .label(name.clone())
                .legend(line_key(style));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
