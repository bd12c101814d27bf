// Replaces lowRISC's prim_clock_gating (a latch-based clock gate) for this testbench: the clock
// passes through ungated, which makes the Verilator model about 20% faster.
//
// ibex_top gates the core's clock only while the core sleeps (wfi: core_sleep_o = ~enable, see
// rtl/ibex_top.sv), and nothing can wake the core in this testbench, so ibex_sim.sv ends the
// simulation as soon as the core has slept for 16 cycles. Measured: the firmware sees the same
// mcycle deltas; a whole run is one cycle shorter (the gate's enable is a flop that is off
// during reset, so with the gate the core's first clock edge after reset comes a cycle later).
module prim_clock_gating #(
  parameter bit NoFpgaGate    = 1'b0,
  parameter bit FpgaBufGlobal = 1'b1
) (
  input        clk_i,
  input        en_i,
  input        test_en_i,
  output logic clk_o
);
  assign clk_o = clk_i;

  logic unused_en;
  assign unused_en = en_i ^ test_en_i;
endmodule
