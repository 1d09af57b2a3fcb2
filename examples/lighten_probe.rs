//! Lightens a text DRAT proof in place as `--certify` does (`grundy::sat::drat`), timed:
//! `cargo run --release --example lighten_probe -- PROOF`.
fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let started = std::time::Instant::now();
    let done = grundy::sat::drat::lighten(&path).unwrap();
    println!("{done:?} in {:.1} s", started.elapsed().as_secs_f64());
}
