//! One file's `.out` written in file order as its results come in: comments as they are,
//! known lines as an earlier session recorded them, the others as the instances answer them.
//! A result is on disk the moment it arrives (see [`super::recorder`]); only its place in the
//! `.out` file waits for the lines before it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use cyclebench_protocol::Hello;

use super::plan::{Planned, Todo};
use super::pool::Sent;
use super::units;
use super::write::{Arrived, Blocked, Sink};
use crate::bench_file::{Action, Line};
use crate::results::Status;
use crate::signals;

/// One input file's `.out` and where its writing stands.
pub(super) struct Ordered<'f> {
    /// The file as given on the command line.
    file: String,
    lines: &'f [Line],
    todo: &'f [Todo],
    /// The lines that have a record, in order.
    record_lines: Vec<&'f Line>,
    /// The suite's hello, for the records of lines not sent.
    hello: Option<&'f Hello>,
    out: BufWriter<File>,
    /// Results that came in before their turn, by record line.
    arrived: Vec<Option<Arrived>>,
    /// The next line to write, and its place among the record lines.
    cursor: usize,
    next: usize,
}

impl<'f> Ordered<'f> {
    /// Starts the `.out` file `out_path` of `planned`.
    pub fn create(out_path: &Path, planned: &'f Planned, hello: Option<&'f Hello>) -> Result<Self> {
        let out = File::create(out_path).with_context(|| format!("creating {}", out_path.display()))?;
        let record_lines: Vec<&Line> = planned.lines.iter().filter(|l| units::is_record_line(l)).collect();
        Ok(Self {
            file: planned.path.display().to_string(),
            lines: &planned.lines,
            todo: &planned.todo,
            arrived: record_lines.iter().map(|_| None).collect(),
            record_lines,
            hello,
            out: BufWriter::new(out),
            cursor: 0,
            next: 0,
        })
    }

    /// The file as given on the command line.
    pub fn name(&self) -> &str {
        &self.file
    }

    /// The lines this session sends: each one's place among the record lines, and its action.
    pub fn to_send(&self) -> Vec<(usize, &'f Action)> {
        self.record_lines
            .iter()
            .zip(self.todo)
            .enumerate()
            .filter_map(|(r, (line, todo))| match (line, todo) {
                (Line::Action { action, .. }, Todo::Send) => Some((r, action)),
                _ => None,
            })
            .collect()
    }

    /// Takes in the result of record line `r` as it arrives, writes every line it lets through,
    /// and parks its reply if its own turn has not come.
    pub fn arrive(&mut self, sink: &mut Sink<'_>, blocked: &mut Option<Blocked>, r: usize, sent: Sent) -> Result<()> {
        let line: &'f Line = self.record_lines[r];
        let Line::Action {
            number,
            text,
            sweep,
            action,
            ..
        } = line
        else {
            bail!("{}: record line {r} is no request and was not sent", self.file);
        };
        // The record, its counts and its `.out` entry or parked reply land together or not at
        // all, whatever signal arrives.
        let _held = signals::hold();
        let arrived = sink.sent((&self.file, *number, text, sweep.as_ref()), action, sent)?;
        self.arrived[r] = Some(arrived);
        self.write_ready(sink, blocked, false)?;
        if let Some(early) = &self.arrived[r] {
            sink.recorder.park(&early.record, &early.reply)?;
        }
        Ok(())
    }

    /// Writes every line up to the first one to send whose result has not come in; when
    /// `finished` (no more results will come), a line the link lost records why it was not
    /// sent.
    pub fn flush(&mut self, sink: &mut Sink<'_>, blocked: &mut Option<Blocked>, finished: bool) -> Result<()> {
        let _held = signals::hold();
        self.write_ready(sink, blocked, finished)
    }

    /// Writes the closing status line, if any, and hands the `.out` file to the system.
    pub fn close(mut self, closing: Option<String>) -> Result<()> {
        if let Some(line) = closing {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()?;
        Ok(())
    }

    fn write_ready(&mut self, sink: &mut Sink<'_>, blocked: &mut Option<Blocked>, finished: bool) -> Result<()> {
        while let Some(line) = self.lines.get(self.cursor) {
            let (number, text, sweep) = match line {
                Line::Comment(text) => {
                    writeln!(self.out, "{text}")?;
                    self.cursor += 1;
                    continue;
                }
                Line::Action {
                    number, text, sweep, ..
                }
                | Line::Invalid {
                    number, text, sweep, ..
                } => (*number, text.as_str(), sweep.as_ref()),
            };
            let file = self.file.as_str();
            let at = (file, number, text, sweep);
            match (&self.todo[self.next], line) {
                (Todo::Skip, _) => {}
                (Todo::Known(known), _) => {
                    if known.record.benchmark == "suspend" && known.record.status == Status::Ok {
                        *blocked = Some(Blocked::Suspended(format!("{file}:{number}")));
                    }
                    let record = sink.record(None, known.record.clone())?;
                    sink.recorder.place(&mut self.out, text, record, &known.reply)?;
                }
                (Todo::Send, Line::Invalid { error, .. }) => {
                    let error = format!("invalid line: {error}");
                    sink.not_sent(&mut self.out, self.hello, at, None, error)?;
                }
                (Todo::Send, Line::Action { action, .. }) => {
                    let request = match action {
                        Action::Request(r) => Some(r),
                        Action::Raw(_) => None,
                    };
                    match (blocked.as_ref(), self.arrived[self.next].take()) {
                        (_, Some(arrived)) => {
                            let suspended = arrived.suspended;
                            sink.recorder
                                .place(&mut self.out, text, arrived.record, &arrived.reply)?;
                            if suspended {
                                *blocked = Some(Blocked::Suspended(format!("{file}:{number}")));
                            }
                        }
                        (Some(Blocked::Suspended(by)), None) => {
                            let why = format!("not sent: the suite was suspended by {by}");
                            sink.not_sent(&mut self.out, self.hello, at, request, why)?;
                        }
                        (Some(Blocked::LinkLost(why)), None) if finished => {
                            let why = format!("not sent: {why}");
                            sink.not_sent(&mut self.out, self.hello, at, request, why)?;
                        }
                        (_, None) => return Ok(()),
                    }
                }
                (Todo::Send, Line::Comment(_)) => unreachable!("comments are no record lines"),
            }
            self.next += 1;
            self.cursor += 1;
        }
        Ok(())
    }
}
