/*!
Value dumps: text, JSON and a checked binary format.

- `text`: one value per line, `G(start)` first.
- `json`: `{"game": ".6", "start": 0, "count": N, "values": [...]}`.
- `bin` (little endian throughout; what `grundy verify` and cluster jobs read):

  | offset | size | field |
  |---|---|---|
  | 0 | 8 | magic `GRUNDYV1` |
  | 8 | 8 | `start`: heap of the first value (u64) |
  | 16 | 8 | `count`: number of values (u64) |
  | 24 | 1 | bytes per value: 2 |
  | 25 | 1 | flags: bit 0 set = every value is exact (proven), clear = speculative |
  | 26 | 2 | `L`: length of the game code (u16) |
  | 28 | L | game code, canonical ASCII (`.6`) |
  | 28+L | 2 count | values `G(start) ... G(start+count-1)`, u16 each |
  | end | 4 | CRC-32 (IEEE) of every byte before it |
*/

use std::io::{self, Write};
use std::path::Path;

use crate::game::Game;
use crate::values::Value;
use crate::values::history::{Claims, decode, encode};

const MAGIC: &[u8; 8] = b"GRUNDYV1";

/// Writes `values` in the binary form of the module docs (starting at heap `start`), a chunk at
/// a time: a long run's values need not fit in memory.
///
/// # Errors
/// Any error of `out`.
pub fn write_bin(
    game: &Game,
    start: u64,
    exact: bool,
    values: Claims,
    out: &mut dyn Write,
) -> io::Result<()> {
    let code = game.to_string();
    let mut header = Vec::with_capacity(28 + code.len());
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&start.to_le_bytes());
    header.extend_from_slice(&(values.len() as u64).to_le_bytes());
    header.push(2);
    header.push(u8::from(exact));
    header.extend_from_slice(&(code.len() as u16).to_le_bytes());
    header.extend_from_slice(code.as_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header);
    out.write_all(&header)?;
    let mut result = Ok(());
    values.for_each_chunk(0, values.len(), &mut |_, chunk| {
        if result.is_ok() {
            let bytes = encode(chunk);
            crc.update(&bytes);
            result = out.write_all(&bytes);
        }
    });
    result?;
    out.write_all(&crc.finalize().to_le_bytes())
}

/// Output format for values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ValuesFormat {
    Text,
    Json,
    Bin,
}

/// A run of consecutive values of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuesDump {
    pub game: Game,
    pub start: u64,
    /// True when every value is proven exact, false for speculative values.
    pub exact: bool,
    pub values: Vec<Value>,
}

/// Why a binary dump was refused.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    #[error("cannot read values file {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("values file {path} is not a grundy binary dump: {reason}")]
    Bad { path: String, reason: String },
}

impl ValuesDump {
    /// Writes the dump in `format`.
    ///
    /// # Errors
    /// Any error of `out`.
    pub fn write(&self, format: ValuesFormat, out: &mut dyn Write) -> io::Result<()> {
        match format {
            ValuesFormat::Text => {
                for v in &self.values {
                    writeln!(out, "{v}")?;
                }
                Ok(())
            }
            ValuesFormat::Json => {
                let json = serde_json::json!({
                    "game": self.game.to_string(), "start": self.start, "count": self.values.len(),
                    "exact": self.exact, "values": self.values,
                });
                writeln!(out, "{json}")
            }
            ValuesFormat::Bin => out.write_all(&self.to_bin()),
        }
    }

    /// The binary form described in the module docs.
    pub fn to_bin(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 2 * self.values.len());
        write_bin(
            &self.game,
            self.start,
            self.exact,
            Claims::from(&self.values),
            &mut b,
        )
        .expect("writing to memory");
        b
    }

    /// Reads a binary dump, checking its length and CRC.
    ///
    /// # Errors
    /// [`DumpError`] if the file is unreadable, truncated, corrupt or not a dump.
    pub fn read_bin(path: &Path) -> Result<ValuesDump, DumpError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| DumpError::Read {
            path: shown.clone(),
            source,
        })?;
        ValuesDump::from_bin(&bytes).map_err(|reason| DumpError::Bad {
            path: shown,
            reason,
        })
    }

    /// Parses the binary form.
    pub fn from_bin(b: &[u8]) -> Result<ValuesDump, String> {
        if b.len() < 32 || &b[..8] != MAGIC {
            return Err("wrong magic or too short".into());
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        let (start, count) = (u64_at(8), u64_at(16));
        if b[24] != 2 {
            return Err(format!("unsupported value width {}", b[24]));
        }
        let exact = b[25] & 1 == 1;
        let code_len = u16::from_le_bytes([b[26], b[27]]) as usize;
        let body = 28 + code_len;
        let expected = (body as u64)
            .checked_add(count.saturating_mul(2))
            .and_then(|x| x.checked_add(4));
        if expected != Some(b.len() as u64) {
            return Err(format!(
                "truncated or padded: header promises {count} values, file has {} bytes",
                b.len()
            ));
        }
        let (data, crc) = b.split_at(b.len() - 4);
        if crc32fast::hash(data).to_le_bytes() != crc {
            return Err("CRC mismatch: the file is corrupt".into());
        }
        let code =
            std::str::from_utf8(&b[28..body]).map_err(|_| "game code is not text".to_string())?;
        let game: Game = code.parse().map_err(|e| format!("bad game code: {e}"))?;
        let values = decode(&data[body..]).collect();
        Ok(ValuesDump {
            game,
            start,
            exact,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_round_trip_and_damage() {
        let dump = ValuesDump {
            game: Game::officers(),
            start: 7,
            exact: true,
            values: vec![0, 300, 2, 65534],
        };
        let bin = dump.to_bin();
        assert_eq!(ValuesDump::from_bin(&bin).unwrap(), dump);
        assert!(ValuesDump::from_bin(&bin[..bin.len() - 1]).is_err());
        let mut flipped = bin.clone();
        flipped[30] ^= 1;
        assert!(ValuesDump::from_bin(&flipped).unwrap_err().contains("CRC"));
        assert!(ValuesDump::from_bin(b"not a dump at all, really not one").is_err());
    }
}
