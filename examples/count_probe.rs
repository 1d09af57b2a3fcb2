//! Counting probe: is "every residue above byte c needs c among its options" ever tight in sum?
//! With m(w) = #{t : w in R_t}, the residues holding a byte above c number at most
//! sum_q m(s[q] ^ c): each residue q with byte a gives c to the residues q + t with a ^ c in R_t.
//! Prints, for each pattern of the periods file, the least slack over c and where it lies.
//! `cargo run --release --example count_probe -- PERIODS_JSON`
mod common;
use common::officers_encoding;

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for r in file["results"].as_array().unwrap() {
        let p = r["p"].as_u64().unwrap() as usize;
        let Some(pat) = r["pattern"].as_array() else {
            continue;
        };
        if p > 40 || r["pattern_period"].as_u64() != Some(p as u64) {
            continue;
        }
        let values: Vec<u16> = pat.iter().map(|v| v.as_u64().unwrap() as u16).collect();
        let e = officers_encoding(p);
        let s = e.compress(&values).unwrap();
        let mut m = [0usize; 256];
        for set in e.shifts() {
            for &v in set {
                m[v as usize] += 1;
            }
        }
        let mut least = (usize::MAX, 0, 0, 0);
        let mut tight = 0;
        for c in 0..256 {
            let above = s.iter().filter(|&&b| b as usize > c).count();
            let cover: usize = s.iter().map(|&a| m[(a as usize) ^ c]).sum();
            let slack = cover - above.min(cover);
            if cover < above {
                println!("p={p}: VIOLATED at c={c}");
            }
            if slack <= 2 && above > 0 {
                tight += 1;
            }
            if above > 0 && slack < least.0 {
                least = (slack, c, above, cover);
            }
        }
        let max = *s.iter().max().unwrap();
        println!(
            "p={p:2} max byte {max:3}: least slack {} at c={} ({} above, cover {}); c with slack<=2: {tight}",
            least.0, least.1, least.2, least.3
        );
    }
}
