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
