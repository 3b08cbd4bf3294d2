//! The `nsw` flags of arithmetic instructions, read from the text of a `.ll` file.
//!
//! LLVM 15's C API has no getter for wrap flags (`LLVMGetNSW` came in LLVM 17), so for
//! textual IR the front end finds them in the source: every `%x = add nsw …`, `sub nsw`, `mul
//! nsw` and `shl nsw` line of a function. Without flags (bitcode input) the lowering wraps every
//! result, which is sound and only costs an extra statement per operation.

use std::collections::{HashMap, HashSet};

/// Per function name, the names of the values defined by an arithmetic instruction with `nsw`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NswFlags {
    functions: HashMap<String, HashSet<String>>,
}

impl NswFlags {
    /// No flags known: every result is wrapped.
    pub fn none() -> NswFlags {
        NswFlags::default()
    }

    /// Scans the text of a `.ll` file.
    pub fn scan(text: &str) -> NswFlags {
        let mut functions: HashMap<String, HashSet<String>> = HashMap::new();
        let mut current: Option<HashSet<String>> = None;
        let mut current_name = String::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("define ") {
                current_name = function_name(rest).unwrap_or_default();
                current = Some(HashSet::new());
                continue;
            }
            if line.starts_with('}') {
                if let Some(set) = current.take() {
                    if !set.is_empty() {
                        functions.insert(std::mem::take(&mut current_name), set);
                    }
                }
                continue;
            }
            let Some(set) = current.as_mut() else {
                continue;
            };
            let Some(rest) = line.trim_start().strip_prefix('%') else {
                continue;
            };
            let Some((name, rhs)) = rest.split_once(" = ") else {
                continue;
            };
            let mut words = rhs.split_ascii_whitespace();
            let arithmetic = matches!(words.next(), Some("add" | "sub" | "mul" | "shl"));
            if arithmetic && words.take(2).any(|w| w == "nsw") {
                set.insert(unquote(name).to_owned());
            }
        }
        NswFlags { functions }
    }

    /// Whether `value` of `function` is defined with `nsw`.
    pub fn nsw(&self, function: &str, value: &str) -> bool {
        self.functions
            .get(function)
            .is_some_and(|set| set.contains(value))
    }

    /// The flags of one function, for lookups by value name.
    pub fn function(&self, function: &str) -> Option<&HashSet<String>> {
        self.functions.get(function)
    }
}

/// The name in `… @name(…`, quoted or not.
fn function_name(define: &str) -> Option<String> {
    let at = define.find('@')?;
    let rest = &define[at + 1..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.find('"').map(|end| quoted[..end].to_owned());
    }
    let end = rest.find('(')?;
    Some(rest[..end].to_owned())
}

fn unquote(name: &str) -> &str {
    name.strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nsw_per_function() {
        let text = "define i32 @f(i32 %a) {\nbb:\n  %x = add nsw i32 %a, 1\n  %y = add i32 %a, 2\n  %z = mul nuw nsw i32 %a, 3\n  ret i32 %x\n}\ndefine internal i32 @\"g h\"(i32 %a) {\n  %x = sub i32 0, %a\n  %s = shl nsw i32 %a, 2\n  ret i32 %x\n}\n";
        let flags = NswFlags::scan(text);
        assert!(flags.nsw("f", "x"));
        assert!(!flags.nsw("f", "y"));
        assert!(flags.nsw("f", "z"));
        assert!(!flags.nsw("g h", "x"));
        assert!(flags.nsw("g h", "s"));
        assert!(!NswFlags::none().nsw("f", "x"));
    }
}
