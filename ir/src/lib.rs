//! absinthe's program representations: the core IR with its text format, the toy instruction
//! language of the graph-free data-flow article, and concrete interpreters for both.
