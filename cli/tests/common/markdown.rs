//! The fenced code blocks of a Markdown document, as the book's tests read them.

/// One fenced code block.
#[derive(Debug)]
pub struct Block {
    /// Its info string (`rust`, `sh`, `text`, …).
    pub info: String,
    /// The line of its first line of code (1-based).
    pub line: usize,
    /// Its lines, without the fence's indentation.
    pub body: String,
    /// The HTML comment on the last non-blank line before the fence (`<!-- file: x -->` gives
    /// `file: x`): what a test does with the block, invisible in the rendered book.
    pub note: Option<String>,
}

/// The fenced code blocks of `text`, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(Block, usize)> = None;
    let mut last_line = "";
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let note = last_line
                        .trim()
                        .strip_prefix("<!--")
                        .and_then(|rest| rest.strip_suffix("-->"))
                        .map(|note| note.trim().to_owned());
                    let block = Block {
                        info: info.trim().to_owned(),
                        line: n + 2,
                        body: String::new(),
                        note,
                    };
                    open = Some((block, indent));
                } else if !trimmed.is_empty() {
                    last_line = line;
                }
            }
            Some((block, indent0)) => {
                if trimmed.starts_with("```") {
                    let (block, _) = open.take().expect("a block is open");
                    out.push(block);
                    last_line = "";
                } else {
                    let line = if line.len() >= *indent0 && line[..*indent0].trim().is_empty() {
                        &line[*indent0..]
                    } else {
                        line
                    };
                    block.body.push_str(line);
                    block.body.push('\n');
                }
            }
        }
    }
    out
}

/// The commands of a shell block: continuation lines joined, comments and a `$ ` prompt
/// dropped, each with its line.
pub fn commands(block: &Block) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending = String::new();
    let mut start = block.line;
    for (i, line) in block.body.lines().enumerate() {
        if pending.is_empty() {
            start = block.line + i;
        }
        let line = line.strip_prefix("$ ").unwrap_or(line);
        let without_comment = match line.find(" #") {
            Some(at) => &line[..at],
            None if line.trim_start().starts_with('#') => "",
            None => line,
        };
        match without_comment.trim_end().strip_suffix('\\') {
            Some(head) => pending.push_str(head),
            None => {
                pending.push_str(without_comment);
                let text = pending.split_whitespace().collect::<Vec<_>>().join(" ");
                pending.clear();
                if !text.is_empty() {
                    out.push((start, text));
                }
            }
        }
    }
    out
}
