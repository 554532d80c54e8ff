//! Reports: everything a person or a program reads. Pictures of a puzzle as text, SVG or PNG ([`picture`]), the
//! plain digit grid that reads back as a `solution:` ([`plain`]), a solve, count or check as text
//! ([`outcome`]) or JSON ([`json`]), the records of bulk and bench runs ([`lines`], [`bench`], and the bench's HTML page [`bench_html`]), and the
//! vocabulary listing ([`vocabulary`]), and the answers of `candidates` and of `check` on a half-filled grid
//! ([`analyse`]), with a hint's steps in words ([`steps`]). Renderers return strings; the command line decides where they go.

pub(crate) mod analyse;
pub(crate) mod bench;
pub(crate) mod bench_html;
pub(crate) mod json;
pub(crate) mod lines;
pub(crate) mod outcome;
pub(crate) mod picture;
pub(crate) mod plain;
pub(crate) mod steps;
pub(crate) mod vocabulary;
