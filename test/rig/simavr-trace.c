/*
 * A second simulator for the simulate accuracy test: runs an Intel HEX on simavr's
 * ATmega328P for a given simulated time, prints USART0 output on stdout and every change
 * of PORTB bit 5 (the Uno's D13) on stderr as "B5 <cycle> <level>", and can drive PD2
 * (D2) to scripted levels at given cycles (CYCLE:LEVEL arguments).
 *
 * usage: simavr-trace FIRMWARE.hex FREQ_HZ SECONDS [CYCLE:LEVEL ...]  (levels for D2)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_hex.h>
#include <simavr/sim_irq.h>

static avr_t *avr;

static void on_uart_byte(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)param;
  fputc((int)value, stdout);
}

static void on_b5(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)param;
  fprintf(stderr, "B5 %llu %u\n", (unsigned long long)avr->cycle, value);
}

int main(int argc, char *argv[]) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s FIRMWARE.hex FREQ_HZ SECONDS [CYCLE:LEVEL ...]\n", argv[0]);
    return 2;
  }
  uint32_t freq = (uint32_t)strtoul(argv[2], NULL, 10);
  double seconds = atof(argv[3]);
  avr = avr_make_mcu_by_name("atmega328p");
  if (!avr) return 1;
  avr_init(avr);
  avr->frequency = freq;
  avr->log = LOG_ERROR;
  uint32_t size, base;
  uint8_t *image = read_ihex_file(argv[1], &size, &base);
  if (!image) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  memcpy(avr->flash + base, image, size);
  free(image);
  avr->codeend = avr->flashend;

  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_POLL_SLEEP;
  flags &= ~AVR_UART_FLAG_STDIO;
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_byte, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 5), on_b5, NULL);
  avr_irq_t *d2 = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);

  int next = 4;
  avr_cycle_count_t end = (avr_cycle_count_t)(seconds * freq);
  while (avr->cycle < end) {
    while (next < argc) {
      unsigned long long at;
      unsigned level;
      if (sscanf(argv[next], "%llu:%u", &at, &level) != 2 || avr->cycle < at) break;
      avr_raise_irq(d2, level);
      next++;
    }
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) break;
  }
  fflush(stdout);
  return 0;
}
