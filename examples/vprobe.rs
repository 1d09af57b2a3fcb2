use grundy::values::exact::Scratch;
use grundy::values::verify::Verifier;
use grundy::{ExactGenerator, Game};
fn main() {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 17).unwrap();
    let truth = g.values().to_vec();
    let mut v = Verifier::new(&Game::officers(), &truth[..5000]);
    println!("space {}", v.space());
    v.extend(&truth);
    let verdict = v.check(&truth, 5000, 1 << 17);
    println!("{:?}", verdict.first_wrong);
    let mut s = Scratch::new();
    s.fit(400);
    for n in 5000..(1 << 17) {
        let e = v.exact_value(&truth, n, &mut s);
        if e != truth[n] as u32 {
            println!("seq mismatch at {n}: {e} vs {}", truth[n]);
            break;
        }
    }
}
