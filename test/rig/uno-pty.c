/*
 * An emulated Arduino Uno for tests: an ATmega328P in simavr running the
 * ATmegaBOOT bootloader, with USART0 on a pseudo-terminal.
 *
 * Why each part is here:
 * - Real-time throttling: simavr runs ~5x faster than a real chip; avrdude's
 *   and the bootloader's time-outs only line up when simulated time tracks
 *   wall time.
 * - Reset on open: a real Uno resets when the host opens the port (DTR drop),
 *   so a reader sees the sketch from its first line and every avrdude run
 *   finds the bootloader listening. We watch the pty master for the hang-up
 *   state clearing, which is the moment a client opens the slave side.
 * - AVR_UART_FLAG_POLL_SLEEP off: with it the UART polls with usleep and the
 *   bootloader's time-outs become very slow.
 *
 * Usage: uno-pty BOOTLOADER.hex [LINK]
 * Prints "pty <path>" on stdout once the port is ready; LINK, when given,
 * becomes a symlink to the pty (like /dev/serial/by-id entries).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_hex.h>
#include <simavr/sim_irq.h>

#define FREQ 16000000u
#define HOST_FIFO 4096

static avr_t *avr;
static uint32_t boot_base;
static int master = -1;
static int client_open;
static volatile sig_atomic_t stop;
static const char *link_path;

/* Bytes from the host waiting for room in the AVR's UART receiver. */
static uint8_t to_avr[HOST_FIFO];
static size_t to_avr_len, to_avr_done;
static int uart_ready = 1;
static avr_irq_t *uart_in;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_uart_byte(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (!client_open) return; /* nobody listening: a real cable drops it too */
  uint8_t byte = (uint8_t)value;
  /* A full pty buffer means the reader stalled; dropping matches a UART. */
  if (write(master, &byte, 1) < 0 && errno != EAGAIN) client_open = 0;
}

static void on_uart_xon(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)value; (void)param;
  uart_ready = 1;
}

static void on_uart_xoff(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)value; (void)param;
  uart_ready = 0;
}

static void uart_flags_without_poll_sleep(void) {
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~(uint32_t)(AVR_UART_FLAG_POLL_SLEEP | AVR_UART_FLAG_STDIO);
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
}

static void reset_into_bootloader(void) {
  avr_reset(avr);
  avr->pc = boot_base; /* BOOTRST fuse: start in the bootloader */
  uart_flags_without_poll_sleep();
  to_avr_len = to_avr_done = 0;
  uart_ready = 1;
}

/* Tracks whether a client holds the slave side open; a new open resets. */
static void watch_client(void) {
  struct pollfd pfd = { .fd = master, .events = POLLIN };
  poll(&pfd, 1, 0);
  int open_now = !(pfd.revents & POLLHUP);
  if (open_now && !client_open) reset_into_bootloader();
  client_open = open_now;
  if (!open_now) return;
  if (to_avr_done == to_avr_len && (pfd.revents & POLLIN)) {
    ssize_t n = read(master, to_avr, sizeof to_avr);
    to_avr_len = n > 0 ? (size_t)n : 0;
    to_avr_done = 0;
  }
  while (uart_ready && to_avr_done < to_avr_len)
    avr_raise_irq(uart_in, to_avr[to_avr_done++]);
}

static void open_port(void) {
  int slave;
  char name[128];
  if (openpty(&master, &slave, name, NULL, NULL) < 0) {
    perror("openpty");
    exit(1);
  }
  struct termios tio;
  tcgetattr(slave, &tio);
  cfmakeraw(&tio);
  tcsetattr(slave, TCSANOW, &tio);
  /* Closing our slave fd puts the master in hang-up until a client opens. */
  close(slave);
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
  if (link_path) {
    unlink(link_path);
    if (symlink(name, link_path) != 0) {
      perror(link_path);
      exit(1);
    }
  }
  printf("pty %s\n", name);
  fflush(stdout);
}

static void connect_uart(void) {
  uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  avr_irq_t *out = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT);
  avr_irq_t *xon = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON);
  avr_irq_t *xoff = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF);
  avr_irq_register_notify(out, on_uart_byte, NULL);
  avr_irq_register_notify(xon, on_uart_xon, NULL);
  avr_irq_register_notify(xoff, on_uart_xoff, NULL);
}

static void on_signal(int sig) {
  (void)sig;
  stop = 1;
}

int main(int argc, char *argv[]) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s BOOTLOADER.hex [LINK]\n", argv[0]);
    return 2;
  }
  link_path = argc > 2 ? argv[2] : NULL;
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  signal(SIGPIPE, SIG_IGN);

  avr = avr_make_mcu_by_name("atmega328p");
  if (!avr) {
    fprintf(stderr, "simavr has no atmega328p core\n");
    return 1;
  }
  uint32_t boot_size;
  uint8_t *boot = read_ihex_file(argv[1], &boot_size, &boot_base);
  if (!boot) {
    fprintf(stderr, "cannot read bootloader %s\n", argv[1]);
    return 1;
  }
  avr_init(avr);
  avr->frequency = FREQ;
  avr->log = LOG_ERROR;
  memcpy(avr->flash + boot_base, boot, boot_size);
  free(boot);
  avr->codeend = avr->flashend;
  avr->reset_pc = boot_base;
  avr->pc = boot_base;
  connect_uart();
  uart_flags_without_poll_sleep();
  open_port();

  uint64_t start_ns = now_ns();
  avr_cycle_count_t start_cycle = avr->cycle;
  while (!stop) {
    /* Run one millisecond of simulated time, then serve the pty. */
    avr_cycle_count_t until = avr->cycle + FREQ / 1000;
    while (avr->cycle < until) {
      int state = avr_run(avr);
      /* A crashed sketch restarts in the bootloader, as a watchdog would. */
      if (state == cpu_Done || state == cpu_Crashed) reset_into_bootloader();
    }
    watch_client();
    uint64_t sim_ns = (uint64_t)(avr->cycle - start_cycle) * 1000u / (FREQ / 1000000u);
    uint64_t wall_ns = now_ns() - start_ns;
    if (sim_ns > wall_ns) {
      struct timespec nap = { 0, (long)(sim_ns - wall_ns) };
      if (nap.tv_nsec >= 1000000000L) nap = (struct timespec){ 1, 0 };
      nanosleep(&nap, NULL);
    } else if (wall_ns - sim_ns > 200000000u) {
      /* Fell far behind (machine busy): catch up instead of racing. */
      start_ns = now_ns();
      start_cycle = avr->cycle;
    }
  }
  if (link_path) unlink(link_path);
  return 0;
}
