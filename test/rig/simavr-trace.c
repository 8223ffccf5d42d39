/*
 * A second simulator for the simulate accuracy tests: runs an Intel HEX on one of simavr's
 * chips for a given simulated time, prints USART0 output on stdout, and on stderr every change
 * of the traced port pins as "<PORT><BIT> <cycle> <level>" (default: B5, the Uno's D13) and every
 * byte the other USARTs send as "U<n> <byte>". CYCLE:LEVEL arguments drive the default input pin
 * (PD2, the Uno's D2) from that cycle on; CYCLE:<PORT><BIT>=LEVEL arguments drive any pin.
 *
 * usage: simavr-trace [-m MCU] [-t PORTBIT]... [-a CHANNEL=MILLIVOLTS]...
 *                     FIRMWARE.hex FREQ_HZ SECONDS [CYCLE:LEVEL | CYCLE:PORTBIT=LEVEL ...]
 *
 * -a sets an ADC input (AVCC is 5000 mV). simavr 1.6 keeps values for ADC0-7 only (avr_adc.h:
 * adc_values[8]; avr_adc.c handles ADC_IRQ_ADC0...7), so for ADC8-15 the rig turns the mux
 * entries that read that channel into constant inputs of those millivolts (ADC_MUX_REF, which
 * avr_adc.c reads as `reg = mux.src`): the chip's MUX5 decoding still picks them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simavr/avr_adc.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_hex.h>
#include <simavr/sim_irq.h>

static avr_t *avr;

static void on_uart0_byte(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)param;
  fputc((int)value, stdout);
}

static void on_uart_byte(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  fprintf(stderr, "U%c %u\n", (int)(intptr_t)param, value & 0xff);
}

static void on_pin(avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  const char *name = param;
  fprintf(stderr, "%s %llu %u\n", name, (unsigned long long)avr->cycle, value & 1);
}

static avr_irq_t *pin_irq(const char *spec) {
  if (strlen(spec) < 2 || spec[0] < 'A' || spec[0] > 'L' || spec[1] < '0' || spec[1] > '7') {
    fprintf(stderr, "bad pin %s (write it like B5)\n", spec);
    exit(2);
  }
  avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(spec[0]), spec[1] - '0');
  if (!irq) {
    fprintf(stderr, "%s has no port %c\n", avr->mmcu, spec[0]);
    exit(2);
  }
  return irq;
}

static avr_adc_t *find_adc(void) {
  for (avr_io_t *io = avr->io_port; io; io = io->next)
    if (io->kind && strcmp(io->kind, "adc") == 0) return (avr_adc_t *)io;
  return NULL;
}

int main(int argc, char *argv[]) {
  const char *mcu = "atmega328p";
  const char *traced[32];
  int traced_count = 0;
  const char *analog[16];
  int analog_count = 0;
  int arg = 1;
  while (arg + 1 < argc && argv[arg][0] == '-') {
    if (strcmp(argv[arg], "-m") == 0) mcu = argv[arg + 1];
    else if (strcmp(argv[arg], "-t") == 0 && traced_count < 32) traced[traced_count++] = argv[arg + 1];
    else if (strcmp(argv[arg], "-a") == 0 && analog_count < 16) analog[analog_count++] = argv[arg + 1];
    else {
      fprintf(stderr, "unknown option %s\n", argv[arg]);
      return 2;
    }
    arg += 2;
  }
  if (argc - arg < 3) {
    fprintf(stderr, "usage: %s [-m MCU] [-t PORTBIT]... [-a CH=MV]... FIRMWARE.hex FREQ_HZ SECONDS [CYCLE:LEVEL | CYCLE:PORTBIT=LEVEL ...]\n", argv[0]);
    return 2;
  }
  if (traced_count == 0) traced[traced_count++] = "B5";
  uint32_t freq = (uint32_t)strtoul(argv[arg + 1], NULL, 10);
  double seconds = atof(argv[arg + 2]);
  avr = avr_make_mcu_by_name(mcu);
  if (!avr) return 1;
  avr_init(avr);
  avr->frequency = freq;
  avr->log = LOG_ERROR;
  avr->avcc = avr->vcc = avr->aref = 5000;
  uint32_t size, base;
  uint8_t *image = read_ihex_file(argv[arg], &size, &base);
  if (!image) {
    fprintf(stderr, "cannot read %s\n", argv[arg]);
    return 1;
  }
  memcpy(avr->flash + base, image, size);
  free(image);
  avr->codeend = avr->flashend;

  for (char uart = '0'; uart <= '3'; uart++) {
    uint32_t flags = 0;
    if (avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS(uart), &flags) < 0) continue;
    flags &= ~AVR_UART_FLAG_POLL_SLEEP;
    flags &= ~AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS(uart), &flags);
    avr_irq_t *out = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ(uart), UART_IRQ_OUTPUT);
    if (out) avr_irq_register_notify(out, uart == '0' ? on_uart0_byte : on_uart_byte, (void *)(intptr_t)uart);
  }
  for (int i = 0; i < traced_count; i++) avr_irq_register_notify(pin_irq(traced[i]), on_pin, (void *)traced[i]);
  avr_irq_t *default_input = strcmp(mcu, "atmega328p") == 0 ? pin_irq("D2") : NULL;

  avr_adc_t *adc = find_adc();
  for (int i = 0; i < analog_count; i++) {
    unsigned channel, millivolts;
    if (sscanf(analog[i], "%u=%u", &channel, &millivolts) != 2 || channel > 15 || !adc) {
      fprintf(stderr, "bad analog input %s\n", analog[i]);
      return 2;
    }
    if (channel < 8) {
      avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + channel), millivolts);
    } else {
      for (int m = 0; m < 64; m++) {
        if (adc->muxmode[m].kind == ADC_MUX_SINGLE && adc->muxmode[m].src == channel) {
          adc->muxmode[m].kind = ADC_MUX_REF;
          adc->muxmode[m].src = millivolts;
        }
      }
    }
  }

  int next = arg + 3;
  avr_cycle_count_t end = (avr_cycle_count_t)(seconds * freq);
  while (avr->cycle < end) {
    while (next < argc) {
      unsigned long long at;
      unsigned level;
      char port;
      unsigned bit;
      avr_irq_t *target;
      if (sscanf(argv[next], "%llu:%c%u=%u", &at, &port, &bit, &level) == 4) {
        char spec[3] = {port, (char)('0' + bit), 0};
        target = pin_irq(spec);
      } else if (sscanf(argv[next], "%llu:%u", &at, &level) == 2 && default_input) {
        target = default_input;
      } else {
        fprintf(stderr, "bad input step %s\n", argv[next]);
        return 2;
      }
      if (avr->cycle < at) break;
      avr_raise_irq(target, level);
      next++;
    }
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) break;
  }
  fflush(stdout);
  return 0;
}
