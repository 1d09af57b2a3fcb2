/*!
Rare tables: the (position, value) pairs of every rare value of a game.

Formats read and written:
- **TSV** (ours): a header that names the game and space, one `position<TAB>value` row per rare
  value, and a footer with the row count and the CRC-32 of the rows, so a truncated or edited
  table is refused rather than silently used:
  ```text
  # grundy rare table v1
  # game=.6 space=0x1ee values=98304 rares=1584 last=20627
  position<TAB>value
  0<TAB>0
  ...
  # end rows=1584 crc32=89abcdef
  ```
- **JSON**: `{"game": ".6", "space": "0x1ee", "values": 98304, "rares": [[0, 0], ...]}`.
- **mvr** (read only): the format of github.com/mvr/officers `officers_sparse.txt`: a first line
  `1584 sparse values ...`, then `position,value` rows; the count in the first line is checked.

Rows must have strictly increasing positions and values below 65535.
*/

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::values::{SparseSpace, Value};

/// A rare table and what is known about where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RareTable {
    pub game: Option<Game>,
    pub space: Option<SparseSpace>,
    /// How many values were computed to find these rares (`None` if unknown).
    pub values: Option<u64>,
    pub rares: Vec<(u64, Value)>,
}

/// Output format of a rare table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    Tsv,
    Json,
}

/// Why a rare table was refused.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot read rare table {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("rare table {path}: line {line}: {reason}")]
    Bad {
        path: String,
        line: usize,
        reason: String,
    },
}

#[derive(Serialize, Deserialize)]
struct JsonTable {
    game: Option<String>,
    space: Option<String>,
    values: Option<u64>,
    rares: Vec<(u64, Value)>,
}

const TSV_MAGIC: &str = "# grundy rare table v1";

impl RareTable {
    /// Writes the table in `format`.
    pub fn render(&self, format: TableFormat) -> String {
        match format {
            TableFormat::Tsv => self.to_tsv(),
            TableFormat::Json => self.to_json(),
        }
    }

    fn to_tsv(&self) -> String {
        let mut rows = String::new();
        for (p, v) in &self.rares {
            let _ = writeln!(rows, "{p}\t{v}");
        }
        let mut out = format!("{TSV_MAGIC}\n#");
        if let Some(g) = &self.game {
            let _ = write!(out, " game={g}");
        }
        if let Some(s) = &self.space {
            let _ = write!(out, " space={s}");
        }
        if let Some(n) = self.values {
            let _ = write!(out, " values={n}");
        }
        let last = self
            .rares
            .last()
            .map_or("none".to_string(), |r| r.0.to_string());
        let _ = writeln!(out, " rares={} last={last}", self.rares.len());
        out.push_str("position\tvalue\n");
        out.push_str(&rows);
        let _ = writeln!(
            out,
            "# end rows={} crc32={:08x}",
            self.rares.len(),
            crc32fast::hash(rows.as_bytes())
        );
        out
    }

    fn to_json(&self) -> String {
        let table = JsonTable {
            game: self.game.as_ref().map(Game::to_string),
            space: self.space.map(|s| s.to_string()),
            values: self.values,
            rares: self.rares.clone(),
        };
        serde_json::to_string(&table).unwrap_or_default() + "\n"
    }

    /// The table of a finished exact run.
    pub fn from_generator(generator: &crate::values::ExactGenerator) -> RareTable {
        RareTable {
            game: Some(generator.game().clone()),
            space: Some(generator.space()),
            values: Some(generator.values().len() as u64),
            rares: generator.rares().map(|(p, v)| (p as u64, v)).collect(),
        }
    }

    /// `None` if both tables list the same rows, else where they first differ.
    pub fn first_difference(&self, other: &RareTable) -> Option<String> {
        let show = |r: Option<&(u64, Value)>| {
            r.map_or("no row".to_string(), |(p, v)| format!("({p}, {v})"))
        };
        let i = (0..self.rares.len().max(other.rares.len()))
            .find(|&i| self.rares.get(i) != other.rares.get(i))?;
        Some(format!(
            "row {}: {} against {}",
            i + 1,
            show(self.rares.get(i)),
            show(other.rares.get(i))
        ))
    }

    /// Reads a table in any of the formats above.
    ///
    /// # Errors
    /// [`TableError`] with the line and reason for anything malformed, truncated or unreadable.
    pub fn read(path: &Path) -> Result<RareTable, TableError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| TableError::Read {
            path: shown.clone(),
            source,
        })?;
        RareTable::parse(&text).map_err(|(line, reason)| TableError::Bad {
            path: shown,
            line,
            reason,
        })
    }

    /// Parses a table; the error is (1-based line, reason).
    pub fn parse(text: &str) -> Result<RareTable, (usize, String)> {
        let table = if text.trim_start().starts_with('{') {
            parse_json(text)?
        } else if text.starts_with(TSV_MAGIC) {
            parse_tsv(text)?
        } else {
            parse_mvr(text)?
        };
        check_rows(&table.rares)?;
        Ok(table)
    }
}

fn parse_json(text: &str) -> Result<RareTable, (usize, String)> {
    let t: JsonTable =
        serde_json::from_str(text).map_err(|e| (e.line(), format!("bad JSON: {e}")))?;
    let game = t
        .game
        .map(|g| g.parse::<Game>())
        .transpose()
        .map_err(|e| (1, e.to_string()))?;
    let space = t
        .space
        .map(|s| s.parse::<SparseSpace>())
        .transpose()
        .map_err(|e| (1, e))?;
    Ok(RareTable {
        game,
        space,
        values: t.values,
        rares: t.rares,
    })
}

fn parse_tsv(text: &str) -> Result<RareTable, (usize, String)> {
    let mut table = RareTable::default();
    let mut rows = String::new();
    let mut footer = None;
    for (i, line) in text.lines().enumerate().skip(1) {
        let line_no = i + 1;
        if footer.is_some() {
            if !line.trim().is_empty() {
                return Err((line_no, "text after the end line".into()));
            }
        } else if let Some(end) = line.strip_prefix("# end ") {
            footer = Some((line_no, end.to_string()));
        } else if let Some(header) = line.strip_prefix("# ") {
            read_header(header, &mut table).map_err(|e| (line_no, e))?;
        } else if line != "position\tvalue" {
            table
                .rares
                .push(parse_row(line, '\t').map_err(|e| (line_no, e))?);
            rows.push_str(line);
            rows.push('\n');
        }
    }
    let last_line = text.lines().count();
    let (line_no, end) = footer.ok_or((last_line, "truncated: no '# end' line".to_string()))?;
    let expected = format!(
        "rows={} crc32={:08x}",
        table.rares.len(),
        crc32fast::hash(rows.as_bytes())
    );
    if end.trim() != expected {
        return Err((
            line_no,
            format!(
                "corrupt: footer says '{}', rows give '{expected}'",
                end.trim()
            ),
        ));
    }
    Ok(table)
}

fn read_header(header: &str, table: &mut RareTable) -> Result<(), String> {
    for field in header.split_whitespace() {
        let (key, value) = field
            .split_once('=')
            .ok_or(format!("bad header field {field:?}"))?;
        match key {
            "game" => {
                table.game = Some(
                    value
                        .parse()
                        .map_err(|e: crate::game::GameParseError| e.to_string())?,
                )
            }
            "space" => table.space = Some(value.parse()?),
            "values" => {
                table.values = Some(
                    value
                        .parse()
                        .map_err(|_| format!("bad values count {value:?}"))?,
                )
            }
            _ => {}
        }
    }
    Ok(())
}

fn parse_mvr(text: &str) -> Result<RareTable, (usize, String)> {
    let mut lines = text.lines();
    let first = lines.next().ok_or((1, "empty file".to_string()))?;
    let count: usize = first
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .ok_or((
            1,
            "not a rare table (expected '# grundy rare table v1', JSON, or 'COUNT sparse values')"
                .to_string(),
        ))?;
    let mut table = RareTable::default();
    for (i, line) in lines.enumerate() {
        if !line.trim().is_empty() {
            table
                .rares
                .push(parse_row(line, ',').map_err(|e| (i + 2, e))?);
        }
    }
    if table.rares.len() != count {
        return Err((
            text.lines().count(),
            format!(
                "truncated: header says {count} rows, found {}",
                table.rares.len()
            ),
        ));
    }
    Ok(table)
}

fn parse_row(line: &str, sep: char) -> Result<(u64, Value), String> {
    let (p, v) = line
        .split_once(sep)
        .ok_or(format!("expected 'position{sep}value', got {line:?}"))?;
    let p = p
        .trim()
        .parse()
        .map_err(|_| format!("bad position {p:?}"))?;
    let v = v
        .trim()
        .parse::<Value>()
        .ok()
        .filter(|&v| v < Value::MAX)
        .ok_or(format!("bad value {v:?}"))?;
    Ok((p, v))
}

fn check_rows(rows: &[(u64, Value)]) -> Result<(), (usize, String)> {
    for (i, w) in rows.windows(2).enumerate() {
        if w[1].0 <= w[0].0 {
            return Err((
                i + 2,
                format!("positions not increasing: {} after {}", w[1].0, w[0].0),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RareTable {
        RareTable {
            game: Some(Game::officers()),
            space: Some(SparseSpace::OFFICERS),
            values: Some(100),
            rares: vec![(0, 0), (1, 0), (2, 1), (4, 0)],
        }
    }

    #[test]
    fn round_trips() {
        for format in [TableFormat::Tsv, TableFormat::Json] {
            assert_eq!(
                RareTable::parse(&sample().render(format)).unwrap(),
                sample()
            );
        }
        let mvr = RareTable::parse("2 sparse values # max\n0,0\n1,0\n").unwrap();
        assert_eq!(mvr.rares, vec![(0, 0), (1, 0)]);
    }

    #[test]
    fn damage_is_detected() {
        let tsv = sample().render(TableFormat::Tsv);
        let lines: Vec<&str> = tsv.lines().collect();
        let truncated = lines[..lines.len() - 1].join("\n");
        assert!(
            RareTable::parse(&truncated)
                .unwrap_err()
                .1
                .contains("truncated")
        );
        let edited = tsv.replace("2\t1", "2\t3");
        assert!(RareTable::parse(&edited).unwrap_err().1.contains("corrupt"));
        assert!(
            RareTable::parse("3 sparse values\n0,0\n1,0\n")
                .unwrap_err()
                .1
                .contains("truncated")
        );
        assert!(RareTable::parse("2 sparse values\n1,0\n0,0\n").is_err());
        assert!(RareTable::parse("hello").is_err());
        assert!(RareTable::parse("{\"rares\": [[0,").is_err());
    }
}
