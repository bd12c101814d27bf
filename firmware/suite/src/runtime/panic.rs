//! Panics and CPU exceptions are reported to the host as an `E panic ...` frame, then the
//! suite stops. The report is built without the heap, which may be what failed.

use core::fmt::Write;

use cyclebench_modules::Comm;
use cyclebench_protocol::wire::checksum;

use crate::platform::{Current, Platform};

/// A fixed buffer that keeps what fits and replaces anything unprintable.
struct Report {
    buf: [u8; 200],
    len: usize,
}

impl Write for Report {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for b in s.bytes() {
            if self.len == self.buf.len() {
                break;
            }
            self.buf[self.len] = if (0x20..0x7f).contains(&b) && b != b'*' {
                b
            } else {
                b'?'
            };
            self.len += 1;
        }
        Ok(())
    }
}

fn report_and_stop(args: core::fmt::Arguments<'_>) -> ! {
    let mut report = Report { buf: [0; 200], len: 0 };
    // No request identifier: a panic answers whatever was running.
    let _ = write!(report, "- E panic {args}");
    let payload = &report.buf[..report.len];
    let mut comm = Current::panic_comm();
    let mut hex = Report { buf: [0; 200], len: 0 };
    let _ = write!(hex, "*{:04x}", checksum(payload));
    comm.write_byte(b'\n');
    payload.iter().for_each(|&b| comm.write_byte(b));
    comm.write_line(&hex.buf[..hex.len]);
    comm.flush();
    Current::stop(false)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    report_and_stop(format_args!("{info}"))
}

#[export_name = "ExceptionHandler"]
fn exception(frame: &riscv_rt::TrapFrame) -> ! {
    let mcause = riscv::register::mcause::read().bits();
    let mepc = riscv::register::mepc::read();
    let mtval = riscv::register::mtval::read();
    report_and_stop(format_args!(
        "cpu exception mcause={mcause:#x} mepc={mepc:#x} mtval={mtval:#x} ra={:#x}",
        frame.ra
    ))
}
