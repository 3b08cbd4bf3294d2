//! [`hosted_analyses!`](crate::hosted_analyses): the catalog of a binary that hosts analyses
//! declared in Rust (`#[absinthe::analysis]`, or a `.dom` file compiled into a crate), so that
//! the one line `absinthe_cli::app::hosted_main::<Catalog>()` gives it the `absinthe` command
//! line (`analyze`, `verify`, `trace`) with those analyses. `absinthe dom build` writes its
//! binary with it too.

/// Declares `enum $catalog`, a catalog of analyses for [`crate::app::hosted_main`]: one variant
/// per type that implements `absinthe::value::DeclaredAnalysis`, each with its line in
/// `--help`. The analysis's name on the command line is its `DeclaredAnalysis::NAME`, how it
/// runs its `spec()`; the first variant is the one that runs when `--analysis` is not given.
///
/// ```ignore
/// absinthe_cli::hosted_analyses! {
///     /// The analyses of this crate.
///     enum Catalog {
///         Signs = my_crate::SignsAnalysis => "signs, parities and intervals",
///     }
/// }
///
/// fn main() -> std::process::ExitCode {
///     absinthe_cli::app::hosted_main::<Catalog>()
/// }
/// ```
#[macro_export]
macro_rules! hosted_analyses {
    (
        $(#[$meta:meta])*
        $vis:vis enum $catalog:ident {
            $($variant:ident = $analysis:ty => $description:expr),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $catalog {
            $($variant),*
        }

        impl $crate::analyses::Analysis for $catalog {
            fn all() -> ::std::vec::Vec<Self> {
                ::std::vec![$($catalog::$variant),*]
            }

            fn as_str(self) -> &'static str {
                match self {
                    $($catalog::$variant => {
                        <$analysis as $crate::__private::DeclaredAnalysis>::NAME
                    })*
                }
            }

            fn description(self) -> &'static str {
                match self {
                    $($catalog::$variant => $description,)*
                }
            }

            fn spec(self) -> &'static $crate::__private::AnalysisSpec {
                match self {
                    $($catalog::$variant => {
                        <$analysis as $crate::__private::DeclaredAnalysis>::spec()
                    })*
                }
            }

            fn dispatch<F: $crate::analyses::ForDomain>(self, f: F) -> F::Output {
                // A catalog without analyses reads no `f`.
                let _ = &f;
                match self {
                    $($catalog::$variant => {
                        f.run::<<$analysis as $crate::__private::DeclaredAnalysis>::Domain>()
                    })*
                }
            }
        }

        impl ::std::fmt::Display for $catalog {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::analyses::Analysis::as_str(*self))
            }
        }
    };
}
