// The Mega 2560 with ten parts, as an EmbedBench-style task would wire them: two LEDs (one
// blinking, one dimmed by analogWrite), two pushbuttons on INT0/INT1, a potentiometer on A8 that
// moves a servo and fills a bar graph, a 74HC595 driving a 7-segment with the number of presses,
// and a buzzer that beeps each second. The loop polls millis() rather than sleeping in delay(),
// as such sketches usually do.
#include <Servo.h>

const int ledPin = 13, dimPin = 11, buttonA = 2, buttonB = 3, buzzerPin = 8, servoPin = 9;
const int dataPin = 22, clockPin = 23, latchPin = 24, firstBar = 30;
const byte glyphs[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F};

Servo servo;
volatile unsigned int presses = 0;
void onPress() { presses++; }

void showDigit(int n) {
  digitalWrite(latchPin, LOW);
  shiftOut(dataPin, clockPin, MSBFIRST, glyphs[n % 10]);
  digitalWrite(latchPin, HIGH);
}

void setup() {
  Serial.begin(115200);
  pinMode(ledPin, OUTPUT);
  pinMode(buttonA, INPUT_PULLUP);
  pinMode(buttonB, INPUT_PULLUP);
  pinMode(dataPin, OUTPUT);
  pinMode(clockPin, OUTPUT);
  pinMode(latchPin, OUTPUT);
  for (int i = 0; i < 10; i++) pinMode(firstBar + i, OUTPUT);
  attachInterrupt(digitalPinToInterrupt(buttonA), onPress, FALLING);
  attachInterrupt(digitalPinToInterrupt(buttonB), onPress, FALLING);
  servo.attach(servoPin);
  showDigit(0);
  Serial.println("ready");
}

void loop() {
  static unsigned long nextBlink = 0, nextRead = 0, nextBeep = 0;
  static bool on = false;
  static int fade = 0;
  unsigned long now = millis();
  if (now >= nextBlink) {
    nextBlink += 250;
    on = !on;
    digitalWrite(ledPin, on);
    fade = (fade + 16) % 256;
    analogWrite(dimPin, fade);
  }
  if (now >= nextRead) {
    nextRead += 50;
    int value = analogRead(A8);
    servo.write(map(value, 0, 1023, 0, 180));
    int bars = map(value, 0, 1023, 0, 10);
    for (int i = 0; i < 10; i++) digitalWrite(firstBar + i, i < bars ? HIGH : LOW);
    showDigit(presses);
    Serial.print("pot=");
    Serial.print(value);
    Serial.print(" presses=");
    Serial.println(presses);
  }
  if (now >= nextBeep) {
    nextBeep += 1000;
    tone(buzzerPin, 440, 100);
  }
  if (digitalRead(buttonB) == LOW) digitalWrite(ledPin, HIGH);
}
