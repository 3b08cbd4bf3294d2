//! The command line's tests whose outcome depends on its `llvm` feature: LLVM IR input
//! (`llvm`) and the book's commands (`book`, which run the `.ll` ones only with the feature).
//! They are a test binary of their own, apart from `all`, so that building with the feature (the
//! LLVM step of `.ci/run`) compiles these two files and not every other test of the command line
//! again.

mod common;

mod book;
mod llvm;
