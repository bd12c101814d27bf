// cyclebench Ibex simulator: drives the Verilator model of ../rtl/ibex_sim.sv.
//
//   Vibex_sim [--max-cycles=N] [--stats] <elf>
//
// Loads the ELF's PT_LOAD segments into the 1 MiB RAM at 0x0010_0000, releases reset (the core
// starts at 0x0010_0080) and clocks the model until the firmware writes the host link's EXIT
// register. stdout carries only what the firmware writes to TXDATA; stdin feeds RXDATA.
// Diagnostics go to stderr.
//
// Exit status: the value written to EXIT (low byte); 2 bad usage or ELF; 3 cycle limit reached;
// 4 the core hung or crashed (asleep with nothing to wake it, double fault, instruction fetch
// outside RAM).

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <poll.h>
#include <unistd.h>

#include "Vibex_sim.h"
#include "Vibex_sim__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

namespace {

constexpr uint32_t kRamBase = 0x00100000;
constexpr uint32_t kRamSize = 1024 * 1024;
constexpr uint32_t kResetPc = kRamBase + 0x80;

// ---- host link, host side -----------------------------------------------------------------------

struct HostLink {
  // Output to stdout, buffered; flushed on '\n', when the core looks at RX, when full, every
  // 2^20 cycles and at the end.
  char out[4096];
  size_t out_len = 0;
  // Input from stdin, read without blocking only when the core asks and the buffer is empty.
  unsigned char in[4096];
  size_t in_pos = 0, in_len = 0;
  bool in_eof = false;

  bool done = false;
  int exit_status = 0;
};

HostLink g_link;
// The host link's output: the process's original stdout. File descriptor 1 itself is pointed at
// stderr, so that whatever the model prints ($display, Verilator's own messages) cannot mix
// with the firmware's output.
int g_host_out = STDOUT_FILENO;

void flush_out() {
  size_t off = 0;
  while (off < g_link.out_len) {
    ssize_t n = write(g_host_out, g_link.out + off, g_link.out_len - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      // stdout is gone: nobody reads the firmware's output any more; drop it.
      break;
    }
    off += static_cast<size_t>(n);
  }
  g_link.out_len = 0;
}

void refill_in() {
  if (g_link.in_pos < g_link.in_len || g_link.in_eof) return;
  g_link.in_pos = g_link.in_len = 0;
  struct pollfd p = {STDIN_FILENO, POLLIN, 0};
  int r = poll(&p, 1, 0);
  if (r < 0) return;  // EINTR: try again next time
  if (r == 0) return;  // nothing yet
  if (p.revents & POLLNVAL) {  // no stdin at all
    g_link.in_eof = true;
    return;
  }
  ssize_t n = read(STDIN_FILENO, g_link.in, sizeof g_link.in);
  if (n > 0) {
    g_link.in_len = static_cast<size_t>(n);
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    g_link.in_eof = true;  // EOF (or a broken stdin): from now on "no data", no more syscalls
  }
}

// ---- simulation state ---------------------------------------------------------------------------

uint64_t g_cycles = 0;
// With --stats: when the run loop started, for the timestamps of output lines.
bool g_stats = false;
std::chrono::steady_clock::time_point g_t0;
int g_fault_kind = 0;
uint32_t g_fault_info = 0;

}  // namespace

// ---- DPI-C imports of ibex_sim.sv -----------------------------------------------------------------

extern "C" void hostlink_tx(unsigned int c) {
  g_link.out[g_link.out_len++] = static_cast<char>(c & 0xff);
  if (g_stats && (c & 0xff) == '\n') {
    // When each line ends, in simulated cycles and wall time: the cost of a request from
    // outside, without a cycle counter in the firmware.
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_t0).count();
    std::fprintf(stderr, "ibex-sim: line ends at cycle %" PRIu64 ", %.3f s\n", g_cycles, secs);
  }
  if ((c & 0xff) == '\n' || g_link.out_len == sizeof g_link.out) flush_out();
}

extern "C" unsigned int hostlink_rx_status() {
  flush_out();
  refill_in();
  return g_link.in_pos < g_link.in_len ? 1 : 0;
}

extern "C" unsigned int hostlink_rx_pop() {
  flush_out();
  refill_in();
  if (g_link.in_pos < g_link.in_len) return g_link.in[g_link.in_pos++];
  return 0xffffffffu;
}

extern "C" void hostlink_exit(unsigned int code) {
  if (g_link.done) return;
  g_link.done = true;
  g_link.exit_status = code & 0xff;
}

extern "C" void sim_fault(unsigned int kind, unsigned int info) {
  if (g_link.done) return;
  g_link.done = true;
  g_fault_kind = static_cast<int>(kind);
  g_fault_info = info;
}

// ---- ELF loading -----------------------------------------------------------------------------------

namespace {

uint32_t rd16(const std::vector<unsigned char> &f, size_t off) {
  return f[off] | (f[off + 1] << 8);
}
uint32_t rd32(const std::vector<unsigned char> &f, size_t off) {
  return f[off] | (f[off + 1] << 8) | (f[off + 2] << 16) | (static_cast<uint32_t>(f[off + 3]) << 24);
}

[[noreturn]] void elf_fail(const char *path, const std::string &why) {
  std::fprintf(stderr, "ibex-sim: %s: %s\n", path, why.c_str());
  std::exit(2);
}

// Fills `ram` (kRamSize bytes, zeroed) from the ELF32 little-endian RISC-V file at `path`.
void load_elf(const char *path, std::vector<unsigned char> &ram) {
  std::ifstream in(path, std::ios::binary);
  if (!in) elf_fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<unsigned char> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (f.size() < 52 || std::memcmp(f.data(), "\x7f" "ELF", 4) != 0) elf_fail(path, "not an ELF file");
  if (f[4] != 1 || f[5] != 1) elf_fail(path, "not a 32-bit little-endian ELF");
  if (rd16(f, 18) != 243) elf_fail(path, "not a RISC-V ELF (e_machine != EM_RISCV)");
  uint32_t entry = rd32(f, 24), phoff = rd32(f, 28);
  uint32_t phentsize = rd16(f, 42), phnum = rd16(f, 44);
  if (phentsize < 32 || phoff + static_cast<uint64_t>(phentsize) * phnum > f.size())
    elf_fail(path, "truncated program header table");
  int loaded = 0;
  for (uint32_t i = 0; i < phnum; i++) {
    size_t ph = phoff + static_cast<size_t>(i) * phentsize;
    if (rd32(f, ph) != 1) continue;  // PT_LOAD only
    uint32_t offset = rd32(f, ph + 4), paddr = rd32(f, ph + 12);
    uint32_t filesz = rd32(f, ph + 16), memsz = rd32(f, ph + 20);
    if (memsz == 0) continue;
    if (filesz > memsz || offset + static_cast<uint64_t>(filesz) > f.size())
      elf_fail(path, "segment " + std::to_string(i) + " is truncated");
    uint64_t end = static_cast<uint64_t>(paddr) + memsz;
    if (paddr < kRamBase || end > static_cast<uint64_t>(kRamBase) + kRamSize) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "segment %u (0x%08" PRIx32 "..0x%08" PRIx64 ") lies outside the RAM "
                    "0x%08" PRIx32 "..0x%08" PRIx32,
                    i, paddr, end - 1, kRamBase, kRamBase + kRamSize - 1);
      elf_fail(path, msg);
    }
    std::memcpy(&ram[paddr - kRamBase], &f[offset], filesz);  // the rest stays zero
    loaded++;
  }
  if (loaded == 0) elf_fail(path, "no loadable segments");
  if (entry != kResetPc)
    std::fprintf(stderr, "ibex-sim: warning: %s: entry point 0x%08" PRIx32
                 " but the core starts at 0x%08" PRIx32 "\n", path, entry, kResetPc);
}

[[noreturn]] void usage(int status) {
  std::fprintf(status ? stderr : stdout,
               "usage: Vibex_sim [--max-cycles=N] [--stats] <elf>\n"
               "  --max-cycles=N  stop with exit status 3 after N cycles (0 = no limit)\n"
               "  --stats         print to stderr the cycle and time at which every output line\n"
               "                  ends, and cycles and simulation speed at the end\n");
  std::exit(status);
}

}  // namespace

int main(int argc, char **argv) {
  uint64_t max_cycles = 0;
  bool stats = false;
  const char *elf = nullptr;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a.rfind("--max-cycles=", 0) == 0) {
      char *end = nullptr;
      errno = 0;
      max_cycles = std::strtoull(a.c_str() + 13, &end, 0);
      if (errno || *end || end == a.c_str() + 13) {
        std::fprintf(stderr, "ibex-sim: bad --max-cycles value '%s'\n", a.c_str() + 13);
        return 2;
      }
    } else if (a == "--stats") {
      stats = true;
    } else if (a == "-h" || a == "--help") {
      usage(0);
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "ibex-sim: unknown option '%s'\n", a.c_str());
      usage(2);
    } else if (elf) {
      std::fprintf(stderr, "ibex-sim: more than one ELF file given\n");
      usage(2);
    } else {
      elf = argv[i];
    }
  }
  if (!elf) usage(2);

  std::vector<unsigned char> ram(kRamSize, 0);
  load_elf(elf, ram);

  std::fflush(stdout);
  g_host_out = dup(STDOUT_FILENO);  // -1 if there is no stdout: the output is dropped
  dup2(STDERR_FILENO, STDOUT_FILENO);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);

  VerilatedContext ctx;
  Vibex_sim top(&ctx, "TOP");

  svSetScope(svGetScopeFromName("TOP.ibex_sim"));
  for (uint32_t w = 0; w < kRamSize / 4; w++) ram_write(w, rd32(ram, w * 4));

  // Reset: a falling edge on rst_ni (the core's clock is gated until its flops are reset, so
  // the asynchronous reset must see an edge), then 4 cycles with rst_ni low.
  top.clk_i = 0;
  top.rst_ni = 1;
  top.eval();
  top.rst_ni = 0;
  top.eval();
  for (int i = 0; i < 4; i++) {
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
  }
  top.rst_ni = 1;
  top.eval();

  auto t0 = std::chrono::steady_clock::now();
  g_t0 = t0;
  g_stats = stats;
  bool limit_hit = false;
  while (!g_link.done) {
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
    ++g_cycles;
    if ((g_cycles & 0xfffff) == 0) flush_out();
    if (max_cycles && g_cycles >= max_cycles && !g_link.done) {
      limit_hit = true;
      break;
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  flush_out();
  top.final();

  if (stats)
    std::fprintf(stderr, "ibex-sim: %" PRIu64 " cycles in %.2f s (%.0f cycles/s)\n", g_cycles, secs,
                 secs > 0 ? g_cycles / secs : 0.0);
  if (limit_hit) {
    std::fprintf(stderr, "ibex-sim: cycle limit %" PRIu64 " reached\n", max_cycles);
    return 3;
  }
  switch (g_fault_kind) {
    case 0:
      return g_link.exit_status;
    case 1:
      std::fprintf(stderr, "ibex-sim: instruction fetch from 0x%08" PRIx32
                   " outside the RAM (cycle %" PRIu64 ")\n", g_fault_info, g_cycles);
      break;
    case 2:
      std::fprintf(stderr, "ibex-sim: the core went to sleep (wfi) at pc 0x%08" PRIx32
                   " and nothing can wake it (cycle %" PRIu64 ")\n", g_fault_info, g_cycles);
      break;
    case 3:
      std::fprintf(stderr, "ibex-sim: double fault (exception inside the trap handler) at pc "
                   "0x%08" PRIx32 " (cycle %" PRIu64 ")\n", g_fault_info, g_cycles);
      break;
    default:
      std::fprintf(stderr, "ibex-sim: fault %d\n", g_fault_kind);
  }
  return 4;
}
