// Blink: the example sketch boardbridge opens by default (`npm start`).
// Board: Arduino Uno (see sketch.yaml). Ask the agent, for example,
// "make the LED fade instead of blink" and it knows pin 13 has no PWM.

const int ledPin = LED_BUILTIN;

void setup() {
  pinMode(ledPin, OUTPUT);
  Serial.begin(9600);
  Serial.println("Blink ready");
}

void loop() {
  digitalWrite(ledPin, HIGH);
  delay(500);
  digitalWrite(ledPin, LOW);
  delay(500);
}
