//! Data-driven error tests: every file in `test_data/err/` must fail to parse, and the full
//! error text is compared with the file of the same name ending in `.err` (bless with
//! `UPDATE_EXPECT=1`).

use std::path::PathBuf;

use absinthe_ir::error::render_errors;
use absinthe_ir::{parse_module_all, parse_toy_all};

#[test]
fn error_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/err");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "air" || e == "toy"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 6, "{inputs:?}");
    for input in inputs {
        let text = std::fs::read_to_string(&input).unwrap();
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let errors = if name.ends_with(".toy") {
            parse_toy_all(&name, &text).err()
        } else {
            parse_module_all(&name, &text).err()
        };
        let errors = errors.unwrap_or_else(|| panic!("{name} parsed without errors"));
        let expected = input.with_extension(format!(
            "{}.err",
            input.extension().unwrap().to_string_lossy()
        ));
        expect_test::expect_file![expected].assert_eq(&render_errors(&errors));
    }
}
