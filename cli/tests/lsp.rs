//! `absinthe lsp` over its standard input and output, as an editor talks to it: the handshake,
//! diagnostics on open and change (the same messages and places as `absinthe dom check`, every
//! error, imported files' too), hover, definition, references, completion, symbols, semantic
//! tokens, formatting and shutdown. Neovim drives the same server in
//! `editors/neovim/test.lua` (`scripts/neovim-tests.sh`).

use crate::common::{absinthe, scratch, workspace};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// A client of one server process.
struct Client {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received while waiting for responses, in order.
    notifications: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_absinthe"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("absinthe lsp starts");
        let input = child.stdin.take().expect("its input");
        let output = BufReader::new(child.stdout.take().expect("its output"));
        let mut client = Client {
            child,
            input,
            output,
            next_id: 0,
            notifications: Vec::new(),
        };
        let init = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        let caps = &init["capabilities"];
        for capability in [
            "hoverProvider",
            "definitionProvider",
            "referencesProvider",
            "completionProvider",
            "documentSymbolProvider",
            "documentFormattingProvider",
            "semanticTokensProvider",
        ] {
            assert!(
                !caps[capability].is_null(),
                "the server offers {capability}: {caps}"
            );
        }
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.input.flush().expect("flush");
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            let read = self.output.read_line(&mut line).expect("read a header");
            assert!(read > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().expect("a length"));
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.output.read_exact(&mut body).expect("read a body");
        serde_json::from_slice(&body).expect("JSON")
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response's result (notifications meanwhile are kept).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                assert!(message["error"].is_null(), "{method} failed: {message}");
                return message["result"].clone();
            }
            self.notifications.push(message);
        }
    }

    /// Waits for the diagnostics of `uri` published after the last change.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            if let Some(i) = self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            }) {
                let found = self.notifications.remove(i);
                return found["params"]["diagnostics"]
                    .as_array()
                    .expect("a list")
                    .clone();
            }
            let message = self.receive();
            self.notifications.push(message);
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "dom", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{ "text": text }] }),
        );
    }

    fn at(&mut self, method: &str, uri: &str, text: &str, needle: &str, extra: Value) -> Value {
        let position = position_of(text, needle);
        let mut params = json!({ "textDocument": { "uri": uri }, "position": position });
        if let (Value::Object(p), Value::Object(e)) = (&mut params, extra) {
            p.extend(e);
        }
        self.request(method, params)
    }

    fn shut_down(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "the server exits cleanly: {status}");
    }
}

/// The position (line, UTF-16 column) of the first character of `needle` in `text`.
fn position_of(text: &str, needle: &str) -> Value {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the text"));
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column: usize = before
        .rsplit('\n')
        .next()
        .unwrap_or("")
        .chars()
        .map(char::len_utf16)
        .sum();
    json!({ "line": line, "character": column })
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// `file:line:col` places and messages of `absinthe dom check FILE`'s errors.
fn dom_check_errors(path: &Path) -> Vec<(usize, usize, String)> {
    let (code, _, err) = absinthe(&["dom", "check", &path.display().to_string()]);
    assert_eq!(code, 1, "dom check fails: {err}");
    let lines: Vec<&str> = err.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(message) = line.strip_prefix("error: ") else {
            continue;
        };
        let place = lines[i + 1].trim_start().trim_start_matches("┌─ ");
        let mut parts = place.rsplitn(3, ':');
        let col = parts.next().and_then(|c| c.parse().ok()).expect("a column");
        let line = parts.next().and_then(|l| l.parse().ok()).expect("a line");
        out.push((line, col, message.to_string()));
    }
    out
}

const BROKEN: &str = "\
lattice Sign = finite { Bot < Neg < Top, Bot < Pos < Top }

product P {
    sign: Sign,
    range: Intervl,
}

transfer neg on \"-\" (a: P, b: P) -> Sign = a.sgn;
";

#[test]
fn diagnostics_are_dom_checks_and_follow_every_change() {
    let dir = scratch("lsp-diagnostics");
    let path = dir.join("broken.dom");
    std::fs::write(&path, BROKEN).expect("write");
    let expected = dom_check_errors(&path);
    assert_eq!(expected.len(), 2, "two errors: {expected:?}");

    let mut client = Client::start();
    let uri = uri(&path);
    client.open(&uri, BROKEN);
    let got = client.diagnostics(&uri);
    assert_eq!(got.len(), expected.len(), "every error: {got:?}");
    for ((line, col, message), d) in expected.iter().zip(&got) {
        let start = &d["range"]["start"];
        assert_eq!(
            (start["line"].as_u64(), start["character"].as_u64()),
            (Some(*line as u64 - 1), Some(*col as u64 - 1)),
            "at dom check's place: {d}"
        );
        let text = d["message"].as_str().expect("a message");
        assert!(text.starts_with(message.as_str()), "{text} is `{message}`");
    }
    assert!(
        got.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .contains("help: did you mean `Interval`")),
        "the help line comes along: {got:?}"
    );

    // Fixed in the editor (not on disk): the diagnostics clear.
    let fixed = BROKEN
        .replace("Intervl", "Interval")
        .replace("a.sgn", "a.sign");
    client.change(&uri, 2, &fixed);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    // A syntax error mid-typing.
    client.change(&uri, 3, &fixed.replace("a.sign;", "a.sign"));
    let got = client.diagnostics(&uri);
    assert_eq!(got.len(), 1, "{got:?}");
    client.shut_down();
}

#[test]
fn an_imported_files_errors_are_published_for_it_and_buffers_win_over_disk() {
    let dir = scratch("lsp-imports");
    let lib = dir.join("lib.dom");
    let main = dir.join("main.dom");
    std::fs::write(
        &lib,
        "lattice Sign = finite { Bot < Top } with { nonsense(a) = a; }\n",
    )
    .expect("write");
    let main_text = "import \"lib.dom\";\nproduct P { sign: Sign }\n";
    std::fs::write(&main, main_text).expect("write");
    let mut client = Client::start();
    client.open(&uri(&main), main_text);
    let on_lib = client.diagnostics(&uri(&lib));
    assert_eq!(
        on_lib.len(),
        1,
        "the imported file's error, on it: {on_lib:?}"
    );
    assert!(
        on_lib[0]["message"].as_str().unwrap().contains("nonsense"),
        "{on_lib:?}"
    );
    // The imported file opened and fixed in the editor, unsaved: the importer sees the buffer.
    client.open(&uri(&lib), "lattice Sign = finite { Bot < Top }\n");
    loop {
        let got = client.diagnostics(&uri(&lib));
        if got.is_empty() {
            break;
        }
    }
    let hover = client.at(
        "textDocument/definition",
        &uri(&main),
        main_text,
        "Sign }",
        json!({}),
    );
    assert_eq!(hover["uri"], uri(&lib), "a type of another file: {hover}");
    client.shut_down();
}

#[test]
fn hover_definition_references_completion_symbols_tokens_and_formatting() {
    let path = workspace().join("dsl-examples/dom/sccp_ranges.dom");
    let text = std::fs::read_to_string(&path).expect("the example");
    let uri = uri(&path);
    let mut client = Client::start();
    client.open(&uri, &text);
    assert_eq!(
        client.diagnostics(&uri),
        Vec::<Value>::new(),
        "the example checks"
    );

    // Hover: a lattice's order, a rule's component, an expression's type.
    let hover = |client: &mut Client, needle: &str| -> String {
        let h = client.at("textDocument/hover", &uri, &text, needle, json!({}));
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    };
    let lattice = hover(&mut client, "Unsigned { flipped");
    assert!(
        lattice.contains("A struct: ordered field by field"),
        "{lattice}"
    );
    assert!(lattice.contains("Written out: `contains`"), "{lattice}");
    assert!(lattice.contains("sccp_ranges.dom:18:1"), "{lattice}");
    let rule = hover(&mut client, "range_literal on");
    assert!(rule.contains("A transfer rule on a literal"), "{rule}");
    assert!(
        rule.contains("the component `range` of `SccpRange` (declared at ")
            && rule.contains("sccp_ranges.dom:26:5"),
        "{rule}"
    );
    let expression = hover(&mut client, "flipped;\n");
    assert!(
        expression.contains("field of `Unsigned`") && expression.contains("Here: `Interval`"),
        "{expression}"
    );

    // Definition: a type, a variant, a field, a local.
    let definition = |client: &mut Client, needle: &str| -> (u64, u64) {
        let d = client.at("textDocument/definition", &uri, &text, needle, json!({}));
        let start = &d["range"]["start"];
        (
            start["line"].as_u64().unwrap(),
            start["character"].as_u64().unwrap(),
        )
    };
    let declared = |needle: &str| {
        let p = position_of(&text, needle);
        (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        )
    };
    assert_eq!(
        definition(&mut client, "Const) -> Interval"),
        declared("Const = flat")
    );
    assert_eq!(
        definition(&mut client, "flipped;\n"),
        declared("flipped: Interval")
    );
    let d = client.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri }, "position": position_of(&text, "f) {\n        x") }),
    );
    assert_eq!(
        d["range"]["start"]["line"].as_u64(),
        position_of(&text, "f = u.flipped")["line"].as_u64(),
        "a local's `let`: {d}"
    );

    // References: every use of a lattice, its declaration too when asked.
    let refs = client.at(
        "textDocument/references",
        &uri,
        &text,
        "Unsigned { flipped",
        json!({ "context": { "includeDeclaration": true } }),
    );
    let uses = text.matches("Unsigned").count();
    let found = refs.as_array().expect("a list").len();
    assert!(
        found >= 5 && found <= uses,
        "{found} of {uses} mentions (comments excluded): {refs}"
    );

    // Completion after `Op::` and after a product value's dot.
    let mut edited = text.clone();
    edited.push_str("fn probe(a: SccpRange) -> bool = is_comparison(Op::UL");
    client.change(&uri, 2, &edited);
    client.diagnostics(&uri);
    let labels = |items: Value| -> Vec<String> {
        let items = items
            .as_array()
            .cloned()
            .or_else(|| items["items"].as_array().cloned());
        items
            .unwrap_or_default()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let end = position_of(&edited, "Op::UL");
    let at_end =
        json!({ "line": end["line"], "character": end["character"].as_u64().unwrap() + 6 });
    let items = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri }, "position": at_end }),
    );
    let ops = labels(items);
    assert!(
        ops.contains(&"ULt".to_string()) && ops.contains(&"ULe".to_string()),
        "{ops:?}"
    );
    assert!(ops.iter().all(|o| o.starts_with("UL")), "{ops:?}");
    let mut edited = text.clone();
    edited.push_str("fn probe(a: SccpRange) -> Const = a.");
    client.change(&uri, 3, &edited);
    client.diagnostics(&uri);
    let end = position_of(&edited, "Const = a.");
    let at_end =
        json!({ "line": end["line"], "character": end["character"].as_u64().unwrap() + 10 });
    let items = client.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri }, "position": at_end }),
    );
    let mut fields = labels(items);
    fields.sort();
    assert_eq!(fields, ["address", "constant", "range", "unsigned"]);
    client.change(&uri, 4, &text);
    client.diagnostics(&uri);

    // The outline.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    for name in [
        "Const",
        "Unsigned",
        "SccpRange",
        "range_from_const",
        "fold_constants",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let product = symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "SccpRange")
        .unwrap();
    assert_eq!(product["children"].as_array().map(Vec::len), Some(4));

    // Semantic tokens: the first token is the comment on line 1; a keyword and a type follow.
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    let first_line = text
        .lines()
        .next()
        .unwrap()
        .chars()
        .map(char::len_utf16)
        .sum::<usize>();
    assert_eq!(
        &data[..5],
        &[0, 0, first_line as u64, 1, 0],
        "a comment, the first line"
    );
    // Decode: `lattice Const` is the keyword then the type.
    let (mut line, mut column) = (0, 0);
    let mut decoded = Vec::new();
    for chunk in data.chunks(5) {
        line += chunk[0];
        column = if chunk[0] == 0 {
            column + chunk[1]
        } else {
            chunk[1]
        };
        decoded.push((line, column, chunk[2], chunk[3]));
    }
    let at = position_of(&text, "lattice Const");
    let line_of = at["line"].as_u64().unwrap();
    assert!(
        decoded.contains(&(line_of, 0, 7, 0)),
        "`lattice` is a keyword"
    );
    assert!(decoded.contains(&(line_of, 8, 5, 4)), "`Const` is a type");

    // Formatting: the example is formatted; a mangled copy comes back to it.
    let edits = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(edits, json!([]), "the example is formatted");
    let mangled: String = text
        .lines()
        .map(|l| format!("{}  \n", l.trim_start()))
        .collect();
    client.change(&uri, 5, &mangled);
    client.diagnostics(&uri);
    let edits = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(edits[0]["newText"].as_str(), Some(text.as_str()));
    client.shut_down();
}

/// How long a keystroke's check takes: the 304-line `sccp_ranges.dom` changed 20 times, each
/// change answered with its diagnostics. Printed (`--nocapture`), not asserted: times on a shared
/// machine are noise; the closing notes quote them.
#[test]
fn a_keystroke_in_a_300_line_file_is_checked_again() {
    let path = workspace().join("dsl-examples/dom/sccp_ranges.dom");
    let text = std::fs::read_to_string(&path).expect("the example");
    let uri = uri(&path);
    let mut client = Client::start();
    client.open(&uri, &text);
    client.diagnostics(&uri);
    let mut times = Vec::new();
    for version in 0..20 {
        let edited = format!("{text}// {version}\n");
        let start = Instant::now();
        client.change(&uri, version + 2, &edited);
        assert!(client.diagnostics(&uri).is_empty());
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "a change of sccp_ranges.dom ({} lines) to its diagnostics: median {:.1} ms, slowest {:.1} ms",
        text.lines().count(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    client.shut_down();
}

/// The VS Code extension's TextMate grammar colours the language's keywords, all of them.
#[test]
fn the_vscode_grammar_knows_every_keyword() {
    let path = workspace().join("editors/vscode/syntaxes/dom.tmLanguage.json");
    let grammar: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the grammar")).expect("JSON");
    let pattern = grammar["repository"]["keyword"]["match"]
        .as_str()
        .expect("a keyword pattern");
    let words: Vec<&str> = pattern
        .trim_start_matches("\\b(")
        .trim_end_matches(")\\b")
        .split('|')
        .collect();
    let mut want = absinthe_domc::dom::ide::tokens::KEYWORDS.to_vec();
    let mut got = words.clone();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, want);
    let package: Value = serde_json::from_str(
        &std::fs::read_to_string(workspace().join("editors/vscode/package.json")).expect("read"),
    )
    .expect("JSON");
    assert_eq!(
        package["contributes"]["languages"][0]["extensions"],
        json!([".dom"])
    );
}

/// A request whose parameters do not parse is answered, under its own id, with an error.
#[test]
fn bad_parameters_are_refused_under_the_requests_id() {
    let mut client = Client::start();
    client.send(
        json!({ "jsonrpc": "2.0", "id": 77, "method": "textDocument/hover",
                        "params": { "textDocument": {} } }),
    );
    let answer = loop {
        let message = client.receive();
        if !message["id"].is_null() {
            break message;
        }
    };
    assert_eq!(answer["id"], 77, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("bad parameters of `textDocument/hover`"),
        "{answer}"
    );
    client.shut_down();
}
