// Sketches whose simulated behaviour the simulate tests check exactly.

/** Prints a known text at 9600 baud, then stops printing. */
export const SERIAL_TEXT = `void setup() {
  Serial.begin(9600);
  Serial.println("hello from the simulated uno");
  Serial.print("2 + 3 = ");
  Serial.println(2 + 3);
}

void loop() {}
`;

/** Echoes analogRead(A0) once. */
export const ANALOG_ECHO = `void setup() {
  Serial.begin(115200);
  Serial.print("A0=");
  Serial.println(analogRead(A0));
}

void loop() {}
`;

/** Counts falling edges on D2 through INT0 and reports them every 100 ms. */
export const INTERRUPT_COUNTER = `volatile unsigned int falls = 0;

void onFall() { falls++; }

void setup() {
  Serial.begin(115200);
  pinMode(2, INPUT_PULLUP);
  attachInterrupt(digitalPinToInterrupt(2), onFall, FALLING);
}

void loop() {
  static unsigned int reported = 0;
  if (falls != reported) {
    reported = falls;
    Serial.print("falls=");
    Serial.println(reported);
  }
}
`;

/** 64 of 255 on D9 (Timer1): a quarter duty. */
export const PWM_QUARTER = `void setup() {
  analogWrite(9, 64);
}

void loop() {}
`;

/** Stops for good: exit() is cli; rjmp . */
export const EXITS = `void setup() {
  Serial.begin(115200);
  Serial.println("bye");
  Serial.flush();
  exit(0);
}

void loop() {}
`;

/** Answers each line it receives in capitals. */
export const SHOUTER = `void setup() {
  Serial.begin(115200);
}

void loop() {
  if (Serial.available()) {
    String line = Serial.readStringUntil('\\n');
    line.toUpperCase();
    Serial.println(line);
  }
}
`;

/** Mega 2560: reads A8 and D30 (a pull-up), prints to Serial1, drives D53 and A15 high. */
export const MEGA_ECHO = `void setup() {
  Serial.begin(115200);
  Serial1.begin(9600);
  pinMode(30, INPUT_PULLUP);
  pinMode(53, OUTPUT);
  digitalWrite(53, HIGH);
  pinMode(A15, OUTPUT);
  digitalWrite(A15, HIGH);
  Serial.print("A8=");
  Serial.print(analogRead(A8));
  Serial.print(" D30=");
  Serial.println(digitalRead(30));
  Serial1.println("to serial1");
  while (digitalRead(30) == HIGH) {}
  Serial.print("D30=");
  Serial.println(digitalRead(30));
}

void loop() {}
`;

/** The Mega's PWM pins of Timers 0–5 (variant order: 4/13 T0, 11/12 T1, 9/10 T2, 2/3/5 T3, 6/7/8 T4, 44/45/46 T5). */
export const MEGA_PWM_PINS = [4, 13, 11, 12, 9, 10, 2, 3, 5, 6, 7, 8, 44, 45, 46];

/**
 * analogWrite on every PWM pin of Timers 0–5, then each of Timers 1–5 and 2 stopped, switched
 * from the core's phase-correct 8-bit PWM (wiring.c init) to fast PWM 8-bit (WGM 5; WGM 3 on
 * Timer2), its counter zeroed and started again at clk/64: fast PWM is the mode simavr 1.6
 * implements for them (sim_mega2560.h leaves phase-correct PWM as TODO, so its counters never ran
 * before), and the restart gives both simulators the same start. Timer0 runs as init() set it.
 */
export const MEGA_FAST_PWM = `const uint8_t pins[] = { ${MEGA_PWM_PINS.join(', ')} };

void setup() {
  for (uint8_t i = 0; i < sizeof pins; i++) analogWrite(pins[i], 40 + 12 * i);
  TCCR1B = 0;
  TCCR3B = 0;
  TCCR4B = 0;
  TCCR5B = 0;
  TCCR2B = 0;
  TCNT1 = 0;
  TCNT3 = 0;
  TCNT4 = 0;
  TCNT5 = 0;
  TCNT2 = 0;
  TCCR2A |= _BV(WGM21);
  TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10);
  TCCR3B = _BV(WGM32) | _BV(CS31) | _BV(CS30);
  TCCR4B = _BV(WGM42) | _BV(CS41) | _BV(CS40);
  TCCR5B = _BV(WGM52) | _BV(CS51) | _BV(CS50);
  TCCR2B = _BV(CS22);
}

void loop() {}
`;

/**
 * A servo on D10 and analogWrite(pwmPin, 64): on the Uno the Servo library takes Timer 1, so
 * D9 (Timer 1) gives no PWM while D5 (Timer 0) gives a quarter duty. The analogWrite is on line 7.
 */
export const servoAndPwm = (pwmPin: number): string => `#include <Servo.h>

Servo s;

void setup() {
  s.attach(10);
  analogWrite(${pwmPin}, 64);
}

void loop() {}
`;

/** The same duties as MEGA_FAST_PWM in the core's own phase-correct PWM (Timers 1–5 and 2). */
export const MEGA_PHASE_CORRECT_PWM = `const uint8_t pins[] = { ${MEGA_PWM_PINS.join(', ')} };

void setup() {
  for (uint8_t i = 0; i < sizeof pins; i++) analogWrite(pins[i], 40 + 12 * i);
}

void loop() {}
`;

/** Serial, Serial1, Serial2 and Serial3 at four speeds, each its own text. */
export const MEGA_SERIALS = `void setup() {
  Serial.begin(115200);
  Serial1.begin(9600);
  Serial2.begin(57600);
  Serial3.begin(38400);
  for (int i = 0; i < 3; i++) {
    Serial.print("zero ");
    Serial.println(i);
    Serial1.print("one ");
    Serial1.println(i * 11);
    Serial2.print("two ");
    Serial2.println(i * 22);
    Serial3.print("three ");
    Serial3.println(i * 33);
  }
}

void loop() {}
`;

/** analogRead of A8–A15 (ADC8–15, MUX5 set) and A0, once each. */
export const MEGA_ANALOG = `void setup() {
  Serial.begin(115200);
  for (uint8_t pin = A8; pin <= A15; pin++) {
    Serial.print('A');
    Serial.print(pin - A0);
    Serial.print('=');
    Serial.println(analogRead(pin));
  }
  Serial.print("A0=");
  Serial.println(analogRead(A0));
}

void loop() {}
`;

/** The Mega's external-interrupt pins, in the order of MEGA_INTERRUPTS' modes. */
export const MEGA_INTERRUPT_PINS = [2, 3, 18, 19, 20, 21];

/** attachInterrupt on D2, D3, D18–D21 (INT4, INT5, INT3–INT0) with FALLING, RISING and CHANGE; reports each count. */
export const MEGA_INTERRUPTS = `const uint8_t pins[] = { ${MEGA_INTERRUPT_PINS.join(', ')} };
volatile unsigned counts[6];

void on0() { counts[0]++; }
void on1() { counts[1]++; }
void on2() { counts[2]++; }
void on3() { counts[3]++; }
void on4() { counts[4]++; }
void on5() { counts[5]++; }

void setup() {
  Serial.begin(115200);
  for (uint8_t i = 0; i < 6; i++) pinMode(pins[i], INPUT_PULLUP);
  attachInterrupt(digitalPinToInterrupt(2), on0, FALLING);
  attachInterrupt(digitalPinToInterrupt(3), on1, RISING);
  attachInterrupt(digitalPinToInterrupt(18), on2, CHANGE);
  attachInterrupt(digitalPinToInterrupt(19), on3, FALLING);
  attachInterrupt(digitalPinToInterrupt(20), on4, RISING);
  attachInterrupt(digitalPinToInterrupt(21), on5, CHANGE);
}

void loop() {
  static unsigned seen[6];
  for (uint8_t i = 0; i < 6; i++) {
    noInterrupts();
    unsigned count = counts[i];
    interrupts();
    if (count != seen[i]) {
      seen[i] = count;
      Serial.print('D');
      Serial.print(pins[i]);
      Serial.print('=');
      Serial.println(count);
    }
  }
}
`;

/** Mega 2560 pin-change interrupts of group 0 (PCINT0_vect) on D10 (PB4) and D53 (PB0), counted per pin. */
export const MEGA_PIN_CHANGE = `volatile unsigned changes;
volatile uint8_t last;

ISR(PCINT0_vect) {
  changes++;
  last = PINB;
}

void setup() {
  Serial.begin(115200);
  pinMode(10, INPUT_PULLUP);
  pinMode(53, INPUT_PULLUP);
  PCMSK0 = _BV(PCINT4) | _BV(PCINT0);
  PCIFR = _BV(PCIF0);
  PCICR = _BV(PCIE0);
}

void loop() {
  static unsigned seen;
  noInterrupts();
  unsigned count = changes;
  uint8_t pins = last;
  interrupts();
  if (count != seen) {
    seen = count;
    Serial.print("changes=");
    Serial.print(count);
    Serial.print(" PINB&0x11=");
    Serial.println(pins & 0x11, HEX);
  }
}
`;

/**
 * Timer3's compare channel C as an interrupt: OCF3C read, cleared by writing 1 to it, set again,
 * then OCIE3C enabled with the flag pending (the interrupt runs at once, datasheet 7.8),
 * each hit stamped with TCNT3.
 */
export const MEGA_COMPARE_C = `volatile unsigned hits;
volatile unsigned stamp;

ISR(TIMER3_COMPC_vect) {
  hits++;
  stamp = TCNT3;
}

void setup() {
  Serial.begin(115200);
  TCCR3A = 0;
  TCCR3B = _BV(WGM32) | _BV(CS31);
  OCR3A = 19999;
  OCR3C = 5000;
  delay(25);
  Serial.print("flag=");
  Serial.println((TIFR3 >> OCF3C) & 1);
  TIFR3 = _BV(OCF3C);
  Serial.print("cleared=");
  Serial.println((TIFR3 >> OCF3C) & 1);
  delay(25);
  TIMSK3 = _BV(OCIE3C);
  unsigned early = hits;
  Serial.print("at once=");
  Serial.println(early);
}

void loop() {
  static unsigned seen;
  noInterrupts();
  unsigned count = hits;
  unsigned at = stamp;
  interrupts();
  if (count != seen && count <= 4) {
    seen = count;
    Serial.print("hit ");
    Serial.print(count);
    Serial.print(" at TCNT3=");
    Serial.println(at / 100);
  }
}
`;
