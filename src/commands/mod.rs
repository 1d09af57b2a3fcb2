//! What each command of the binary does, one module per group: argument checks, calls into the
//! library, and what is printed. The arguments themselves are declared in `main.rs`.

pub(crate) mod bench;
pub(crate) mod bounds;
pub(crate) mod cubes;
pub(crate) mod plot;
pub(crate) mod question;
pub(crate) mod sat;
pub(crate) mod slurm;
pub(crate) mod values;

/// The folder `--lemmas [DIR]` names: DIR, or `lemmas/` beside `beside` (a ladder, a periods
/// file; `slurm sat` puts it in its work folder). Why beside it: lemma files are a campaign's state as much as its
/// ledger is, and a folder kept elsewhere (`/tmp`, a home directory) was lost with two machines
/// while the results folder moved on, and with it hours of search.
pub(crate) fn lemma_dir(
    asked: Option<Option<std::path::PathBuf>>,
    beside: &std::path::Path,
) -> Option<std::path::PathBuf> {
    asked.map(|dir| {
        dir.unwrap_or_else(|| {
            beside
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join("lemmas")
        })
    })
}
