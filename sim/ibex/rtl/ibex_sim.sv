// cyclebench Ibex testbench: ibex_top (no tracer) + 1 MiB single-cycle RAM + the host link.
//
// Memory map (data side; the instruction side sees only the RAM):
//   0x0010_0000 .. 0x001F_FFFF  RAM, 1 MiB, instructions and data, answers in the next cycle
//   0x0002_0000 .. 0x0002_03FF  host link:
//     +0x0 TXDATA   (W) bits [7:0] go to the simulator's stdout
//     +0x4 RXSTATUS (R) bit 0 = a byte from the simulator's stdin is available
//     +0x8 RXDATA   (R) pops the next byte (0..255), or 0xFFFF_FFFF if there is none
//     +0xC EXIT     (W) ends the simulation; exit status = bits [7:0]
//   other offsets read 0 and ignore writes
//   anything else: the bus answers with an error (the core takes a load/store access fault)
//
// The host side of the link and the ELF loader are in ../cpp/ibex_sim_main.cc (DPI-C).
// The configuration comes in as defines (see ../build.sh): RV32M and RV32B.

`ifndef RV32M
  `define RV32M ibex_pkg::RV32MFast
`endif
`ifndef RV32B
  `define RV32B ibex_pkg::RV32BNone
`endif

module ibex_sim (
  input logic clk_i,
  input logic rst_ni
);
  // Host side (C++).
  import "DPI-C" function void hostlink_tx(input int unsigned c);
  import "DPI-C" function int unsigned hostlink_rx_status();
  import "DPI-C" function int unsigned hostlink_rx_pop();
  import "DPI-C" function void hostlink_exit(input int unsigned code);
  // kind: 1 = instruction fetch outside RAM (info = address), 2 = core asleep (info = PC),
  // 3 = double fault (info = PC of the faulting instruction)
  import "DPI-C" function void sim_fault(input int unsigned kind, input int unsigned info);

  localparam int unsigned RamWords = 1024 * 1024 / 4;

  // ---------------------------------------------------------------------------------------------
  // Core
  logic        instr_req, instr_gnt, instr_rvalid, instr_err;
  logic [31:0] instr_addr, instr_rdata;
  logic        data_req, data_gnt, data_rvalid, data_we, data_err;
  logic [3:0]  data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;
  logic        core_sleep, double_fault_seen;
  ibex_pkg::crash_dump_t crash_dump;

  // Every request is granted at once; the answer (rvalid) follows in the next cycle.
  assign instr_gnt = instr_req;
  assign data_gnt  = data_req;

  ibex_top #(
    .PMPEnable       (1'b0),
    .MHPMCounterNum  (0),
    .RV32E           (1'b0),
    .RV32M           (`RV32M),
    .RV32B           (`RV32B),
    .RegFile         (ibex_pkg::RegFileFF),
    .BranchTargetALU (1'b0),
    .WritebackStage  (1'b0),
    .ICache          (1'b0),
    .ICacheECC       (1'b0),
    .BranchPredictor (1'b0),
    .DbgTriggerEn    (1'b0),
    .SecureIbex      (1'b0),
    .ICacheScramble  (1'b0),
    .DmBaseAddr      (32'h0010_0000),
    .DmAddrMask      (32'h0000_0003),
    .DmHaltAddr      (32'h0010_0000),
    .DmExceptionAddr (32'h0010_0000)
  ) u_top (
    .clk_i,
    .rst_ni,
    .test_en_i              (1'b0),
    .scan_rst_ni            (1'b1),
    .ram_cfg_i              (prim_ram_1p_pkg::RAM_1P_CFG_DEFAULT),
    .hart_id_i              (32'h0),
    // The first instruction is fetched from boot_addr + 0x80 = 0x0010_0080.
    .boot_addr_i            (32'h0010_0000),

    .instr_req_o            (instr_req),
    .instr_gnt_i            (instr_gnt),
    .instr_rvalid_i         (instr_rvalid),
    .instr_addr_o           (instr_addr),
    .instr_rdata_i          (instr_rdata),
    .instr_rdata_intg_i     (7'h0),
    .instr_err_i            (instr_err),

    .data_req_o             (data_req),
    .data_gnt_i             (data_gnt),
    .data_rvalid_i          (data_rvalid),
    .data_we_o              (data_we),
    .data_be_o              (data_be),
    .data_addr_o            (data_addr),
    .data_wdata_o           (data_wdata),
    .data_wdata_intg_o      (),
    .data_rdata_i           (data_rdata),
    .data_rdata_intg_i      (7'h0),
    .data_err_i             (data_err),

    .irq_software_i         (1'b0),
    .irq_timer_i            (1'b0),
    .irq_external_i         (1'b0),
    .irq_fast_i             (15'h0),
    .irq_nm_i               (1'b0),

    .scramble_key_valid_i   (1'b0),
    .scramble_key_i         ('0),
    .scramble_nonce_i       ('0),
    .scramble_req_o         (),

    .debug_req_i            (1'b0),
    .crash_dump_o           (crash_dump),
    .double_fault_seen_o    (double_fault_seen),

    .fetch_enable_i         (ibex_pkg::IbexMuBiOn),
    .alert_minor_o          (),
    .alert_major_internal_o (),
    .alert_major_bus_o      (),
    .core_sleep_o           (core_sleep)
  );

  // ---------------------------------------------------------------------------------------------
  // RAM: one write port (data) and two read ports (instructions, data), one cycle latency.
  logic [31:0] mem [RamWords];

  // The ELF loader writes the program through this before reset is released.
  export "DPI-C" function ram_write;
  function void ram_write(input int unsigned index, input int unsigned value);
    mem[index[17:0]] = value;
  endfunction

  logic instr_in_ram, data_in_ram, data_in_hostlink;
  assign instr_in_ram     = instr_addr[31:20] == 12'h001;
  assign data_in_ram      = data_addr[31:20] == 12'h001;
  assign data_in_hostlink = data_addr[31:10] == 22'(32'h0002_0000 >> 10);

  logic [31:0] data_wmask;
  assign data_wmask = {{8{data_be[3]}}, {8{data_be[2]}}, {8{data_be[1]}}, {8{data_be[0]}}};

  logic [31:0] ram_rdata_q, hostlink_rdata_q;
  logic        rdata_from_ram_q;

  always_ff @(posedge clk_i) begin
    if (instr_req) begin
      instr_rdata <= mem[instr_addr[19:2]];
    end
    if (data_req && data_in_ram) begin
      if (data_we) begin
        mem[data_addr[19:2]] <= (mem[data_addr[19:2]] & ~data_wmask) | (data_wdata & data_wmask);
      end else begin
        ram_rdata_q <= mem[data_addr[19:2]];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_rvalid     <= 1'b0;
      instr_err        <= 1'b0;
      data_rvalid      <= 1'b0;
      data_err         <= 1'b0;
      rdata_from_ram_q <= 1'b0;
      hostlink_rdata_q <= 32'h0;
    end else begin
      instr_rvalid <= instr_req;
      instr_err    <= instr_req & ~instr_in_ram;
      if (instr_req && !instr_in_ram) begin
        sim_fault(1, instr_addr);
      end

      data_rvalid      <= data_req;
      data_err         <= data_req & ~(data_in_ram | data_in_hostlink);
      rdata_from_ram_q <= data_in_ram;
      if (data_req && data_in_hostlink) begin
        hostlink_rdata_q <= 32'h0;
        if (data_we) begin
          unique case (data_addr[9:2])
            8'h0: if (data_be[0]) hostlink_tx({24'h0, data_wdata[7:0]});
            8'h3: hostlink_exit(data_wdata & data_wmask);
            default: ;
          endcase
        end else begin
          unique case (data_addr[9:2])
            8'h1: hostlink_rdata_q <= hostlink_rx_status();
            8'h2: hostlink_rdata_q <= hostlink_rx_pop();
            default: ;
          endcase
        end
      end
    end
  end

  assign data_rdata = rdata_from_ram_q ? ram_rdata_q : hostlink_rdata_q;

  // ---------------------------------------------------------------------------------------------
  // Conditions that end the simulation with a diagnostic. Nothing can wake a sleeping core here
  // (no interrupts, no debug requests), so core_sleep_o held for 16 cycles means a hang (wfi).
  logic [4:0] sleep_cycles_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sleep_cycles_q <= 5'd0;
    end else begin
      sleep_cycles_q <= core_sleep ? sleep_cycles_q + 5'd1 : 5'd0;
      if (sleep_cycles_q == 5'd16) begin
        sim_fault(2, crash_dump.current_pc);
      end
      if (double_fault_seen) begin
        sim_fault(3, crash_dump.current_pc);
      end
    end
  end

endmodule
