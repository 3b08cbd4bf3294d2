//! A catalog of analyses declared in Rust (`#[absinthe::analysis]`), hosted by the command line
//! with `hosted_analyses!`: its names, lines and specs are the declarations', its dispatch runs
//! each declaration's domain, and `analyze`, `verify` and `trace` run it as the built-in command
//! does.

use absinthe::value::DeclaredAnalysis;
use absinthe_cli::analyses::{Analysis, ForDomain, catalog_lines};
use absinthe_cli::args::{AnalyzeArgs, TraceArgs, VerifyArgs};
use absinthe_dsl_examples::signs::{SignsDense, SignsSparse};
use clap::Parser;
use std::process::ExitCode;

use crate::common::workspace;

// ANCHOR: catalog
absinthe_cli::hosted_analyses! {
    /// Two of `dsl-examples`' attribute-declared analyses; the first is the default.
    enum Catalog {
        Dense = SignsDense => "signs, dense states",
        Sparse = SignsSparse => "signs, sparse states",
    }
}
// ANCHOR_END: catalog

/// The domain's type name, which `dispatch` hands to [`ForDomain::run`].
struct DomainName;

impl ForDomain for DomainName {
    type Output = &'static str;

    fn run<D: absinthe::value::ValueDomain>(self) -> &'static str {
        std::any::type_name::<D>()
    }
}

#[test]
fn a_hosted_catalog_is_its_declarations() {
    assert_eq!(Catalog::all(), [Catalog::Dense, Catalog::Sparse]);
    assert_eq!(
        Catalog::Dense.as_str(),
        <SignsDense as DeclaredAnalysis>::NAME
    );
    assert_eq!(Catalog::parse("SignsSparse"), Some(Catalog::Sparse));
    assert_eq!(Catalog::Sparse.spec(), SignsSparse::spec());
    assert_eq!(Catalog::Dense.description(), "signs, dense states");
    assert_eq!(
        Catalog::Dense.dispatch(DomainName),
        std::any::type_name::<<SignsDense as DeclaredAnalysis>::Domain>()
    );
    let lines = catalog_lines::<Catalog>();
    assert!(
        lines.contains("SignsDense   signs, dense states"),
        "{lines}"
    );
}

/// The arguments of one command, parsed as the command line parses them.
#[derive(Parser)]
struct Command<T: clap::Args> {
    #[command(flatten)]
    args: T,
}

fn parse<T: clap::Args>(args: &[&str]) -> T {
    Command::<T>::try_parse_from(std::iter::once("hosted").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
        .args
}

#[test]
fn a_hosted_catalog_runs_every_command() {
    let program = workspace().join("dsl-examples/test_data/reduction.air");
    let program = program.to_str().expect("a UTF-8 path");
    let analyze: AnalyzeArgs = parse(&[program, "--analysis", "SignsSparse"]);
    assert_eq!(
        absinthe_cli::app::analyze(&analyze, Catalog::Dense),
        ExitCode::SUCCESS
    );
    let verify: VerifyArgs = parse(&[program, "--runs", "3"]);
    assert_eq!(
        absinthe_cli::app::verify(&verify, Catalog::Dense),
        ExitCode::SUCCESS
    );
    let out = crate::common::scratch("hosted-trace").join("trace.html");
    let out = out.to_str().expect("a UTF-8 path");
    let trace: TraceArgs = parse(&[program, "--html", out]);
    assert_eq!(
        absinthe_cli::app::trace(&trace, Catalog::Dense),
        ExitCode::SUCCESS
    );
    let page = std::fs::read_to_string(out).expect("the page is written");
    assert!(page.contains("SignsDense"), "the page names the analysis");
    // An analysis the catalog does not have is refused with the catalog's list.
    let unknown: AnalyzeArgs = parse(&[program, "--analysis", "signs"]);
    assert_eq!(
        absinthe_cli::app::analyze(&unknown, Catalog::Dense),
        ExitCode::from(2)
    );
}
