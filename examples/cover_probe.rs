//! Times the cover check of a campaign's region log: `cargo run --release --example cover_probe
//! -- LEDGER`.
fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).expect("LEDGER"));
    let ledger = grundy::sat::cubes::Ledger::read(&path).unwrap().unwrap();
    let regions = grundy::sat::certify::read_regions(&path, &ledger).unwrap();
    let p = ledger.p;
    let root = grundy::sat::cubes::Cube::parse(&ledger.root, p).unwrap();
    let open: Vec<_> = ledger
        .open
        .iter()
        .map(|c| grundy::sat::cubes::Cube::parse(c, p).unwrap())
        .collect();
    let started = std::time::Instant::now();
    let pieces = grundy::sat::certify::uncovered(&root, &regions, 50_000_000).unwrap();
    let share: f64 = pieces.iter().map(|c| c.share()).sum();
    let open_share: f64 = open.iter().map(|c| c.share()).sum();
    println!(
        "{} regions: {} uncovered pieces, share {share:e} (open cubes {open_share:e}), {:.3} s",
        regions.len(),
        pieces.len(),
        started.elapsed().as_secs_f64()
    );
}
