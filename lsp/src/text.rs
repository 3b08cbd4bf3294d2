//! Byte offsets of a text and the protocol's positions (line and UTF-16 column), both ways.

use lsp_types::{Position, Range};

/// Where each line of a text starts.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `text`.
    pub fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { starts }
    }

    /// The position of byte `offset` of `text` (clamped to the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column: usize = text[self.starts[line]..offset]
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, column as u32)
    }

    /// The byte offset of `position` in `text` (past the end of a line: its end).
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |next| next - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// The range of bytes `span` of `text`.
    pub fn range(&self, text: &str, span: std::ops::Range<usize>) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "ab\n// ⊥ 𝔽 x\nlast";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        // `⊥` is one unit, `𝔽` two.
        assert_eq!(lines.position(text, x), Position::new(1, 8));
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(lines.offset(text, lines.position(text, offset)), offset);
        }
        assert_eq!(lines.offset(text, Position::new(0, 99)), 2);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
    }
}
