;; The token scanner of the C/C++ lexer (c-tokens.ts): where the next token of a text starts and
;; ends and what kind it is, as the lexer's own scan() decides them, over the text's UTF-16 code
;; units, so a header's characters are not each read by the interpreter a first context runs in.
;; scripts/assemble-wasm.mjs assembles it into c-tokens-wasm.ts.
;;
;; The caller writes the text (UTF-16LE) at byte 256, then at least four zero code units, and calls
;; loaded(length). Offsets are code units, as JavaScript's string indices are. Byte 0 and byte 4
;; are the registers scan() writes: the token's start, and its kind with its flags
;; (kind | bol << 3 | spaceBefore << 4). Bytes 16 to 143 are the classes of the ASCII code units
;; (made by $classes when the module starts).
;;
;; scan(index, end, state, mode) reads from `index` up to `end` (a stretch of the text ends before
;; the text does; literals and comments are still read to the text's end, as the lexer reads them).
;; `state` is whether the scan starts at a line's start (1) and after a space (2). mode 0: the next
;; token; mode 1: the next token that starts a logical line (the ones before it are passed over).
;; It returns where the token ends, or -1 when there is none before `end`. Kinds: 0 identifier,
;; 1 number, 2 string, 3 character, 4 punctuator, 5 a raw string's prefix (R, u8R, uR, UR, LR)
;; whose quote is at the returned offset: the caller finds its end (it may run over lines, to a
;; delimiter) and goes on from there; mode 1 returns it whether or not it starts a line.
(module
  (memory (export "memory") 1)
  (global $length (mut i32) (i32.const 0))
  (start $classes)

  ;; The class bits of code unit c below 128, at byte 16 + c: 1 goes on an identifier (a letter, a
  ;; digit, _ or $), 2 starts one (a letter, _ or $), 4 a digit, 8 goes on a pp-number (a letter,
  ;; a digit, _ or .), 16 a space inside a line (space, tab, VT, FF, CR), 32 what may make a line's
  ;; rest more than its tokens (", ', / and the newline). A code unit from 128 up goes on and
  ;; starts an identifier, and is none of the others.
  (func $classes
    (local $c i32) (local $bits i32) (local $letter i32) (local $digit i32)
    (loop $units
      (local.set $letter
        (i32.or
          (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 26))
          (i32.lt_u (i32.sub (local.get $c) (i32.const 65)) (i32.const 26))))
      (local.set $digit (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))
      (local.set $bits (i32.const 0))
      (if (i32.or (i32.or (local.get $letter) (local.get $digit)) (i32.or (i32.eq (local.get $c) (i32.const 95)) (i32.eq (local.get $c) (i32.const 36))))
        (then (local.set $bits (i32.or (local.get $bits) (i32.const 1)))))
      (if (i32.or (local.get $letter) (i32.or (i32.eq (local.get $c) (i32.const 95)) (i32.eq (local.get $c) (i32.const 36))))
        (then (local.set $bits (i32.or (local.get $bits) (i32.const 2)))))
      (if (local.get $digit) (then (local.set $bits (i32.or (local.get $bits) (i32.const 4)))))
      (if (i32.or (i32.or (local.get $letter) (local.get $digit)) (i32.or (i32.eq (local.get $c) (i32.const 95)) (i32.eq (local.get $c) (i32.const 46))))
        (then (local.set $bits (i32.or (local.get $bits) (i32.const 8)))))
      (if (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.or (i32.eq (local.get $c) (i32.const 9)) (i32.lt_u (i32.sub (local.get $c) (i32.const 11)) (i32.const 3))))
        (then (local.set $bits (i32.or (local.get $bits) (i32.const 16)))))
      (if (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 39)))
            (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 10))))
        (then (local.set $bits (i32.or (local.get $bits) (i32.const 32)))))
      (i32.store8 offset=16 (local.get $c) (local.get $bits))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $units (i32.lt_u (local.get $c) (i32.const 128)))))

  (func (export "loaded") (param $length i32)
    (global.set $length (local.get $length)))

  ;; The code unit at `i` (0 from the text's end on).
  (func $at (param $i i32) (result i32)
    (i32.load16_u offset=256 (i32.shl (local.get $i) (i32.const 1))))

  ;; Whether code unit c has any of the class bits `bits` (a code unit from 128 up: bits 1 and 2), as 1 or 0.
  (func $is (param $c i32) (param $bits i32) (result i32)
    (if (i32.ge_u (local.get $c) (i32.const 128)) (then (return (i32.ne (i32.and (local.get $bits) (i32.const 3)) (i32.const 0)))))
    (i32.ne (i32.and (i32.load8_u offset=16 (local.get $c)) (local.get $bits)) (i32.const 0)))

  ;; The first newline from `from` on, or -1.
  (func $newlineFrom (param $from i32) (result i32)
    (block $none
      (loop $units
        (br_if $none (i32.ge_s (local.get $from) (global.get $length)))
        (if (i32.eq (i32.load16_u offset=256 (i32.shl (local.get $from) (i32.const 1))) (i32.const 10)) (then (return (local.get $from))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $units)))
    (i32.const -1))

  ;; The first `*/` from `from` on, or -1.
  (func $commentEndFrom (param $from i32) (result i32)
    (block $none
      (loop $units
        (br_if $none (i32.ge_s (i32.add (local.get $from) (i32.const 1)) (global.get $length)))
        (if (i32.eq (i32.load16_u offset=256 (i32.shl (local.get $from) (i32.const 1))) (i32.const 42))
          (then (if (i32.eq (i32.load16_u offset=258 (i32.shl (local.get $from) (i32.const 1))) (i32.const 47)) (then (return (local.get $from))))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $units)))
    (i32.const -1))

  ;; Where the rest of a line from `index` (a token's end) ends when it holds no quote, apostrophe or
  ;; `/*`, so no literal or comment that could go on past it: at its newline, or at `end` before
  ;; one. Otherwise `index`: its tokens are read one by one.
  (func $plainRest (param $index i32) (param $end i32) (result i32)
    (local $i i32) (local $c i32)
    (local.set $i (local.get $index))
    (block $none
      (loop $units
        (br_if $none (i32.ge_s (local.get $i) (local.get $end)))
        (local.set $c (i32.load16_u offset=256 (i32.shl (local.get $i) (i32.const 1))))
        (if (i32.lt_u (local.get $c) (i32.const 128))
          (then
            (if (i32.and (i32.load8_u offset=16 (local.get $c)) (i32.const 32))
              (then
                (if (i32.eq (local.get $c) (i32.const 10)) (then (return (local.get $i))))
                ;; A slash is plain unless a star follows it.
                (if (i32.ne (local.get $c) (i32.const 47)) (then (return (local.get $index))))
                (if (i32.eq (i32.load16_u offset=258 (i32.shl (local.get $i) (i32.const 1))) (i32.const 42)) (then (return (local.get $index))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $units)))
    (local.get $end))

  ;; Where the literal opened by the quote at `open` ends: after its closing quote, at the newline
  ;; that ends it unclosed, or at the text's end. A backslash escapes the code unit after it.
  (func $quotedEnd (param $open i32) (param $quote i32) (result i32)
    (local $i i32) (local $c i32)
    (local.set $i (i32.add (local.get $open) (i32.const 1)))
    (block $end
      (loop $units
        (br_if $end (i32.ge_s (local.get $i) (global.get $length)))
        (local.set $c (i32.load16_u offset=256 (i32.shl (local.get $i) (i32.const 1))))
        (if (i32.eq (local.get $c) (i32.const 92))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $units)))
        (if (i32.eq (local.get $c) (local.get $quote)) (then (return (i32.add (local.get $i) (i32.const 1)))))
        (if (i32.eq (local.get $c) (i32.const 10)) (then (return (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $units)))
    (global.get $length))

  ;; Whether the `n` code units at `start` are an encoding prefix: u8, u, U or L.
  (func $isEncodingPrefix (param $start i32) (param $n i32) (result i32)
    (local $c i32)
    (local.set $c (call $at (local.get $start)))
    (if (i32.eq (local.get $n) (i32.const 1))
      (then
        (return
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 117)) (i32.eq (local.get $c) (i32.const 85)))
            (i32.eq (local.get $c) (i32.const 76))))))
    (if (i32.eq (local.get $n) (i32.const 2))
      (then
        (return
          (i32.and
            (i32.eq (local.get $c) (i32.const 117))
            (i32.eq (call $at (i32.add (local.get $start) (i32.const 1))) (i32.const 56))))))
    (i32.const 0))

  ;; The length of the punctuator at `i` whose first code unit is `c`: the longest that matches.
  (func $punctuatorLength (param $i i32) (param $c i32) (result i32)
    (local $c1 i32) (local $c2 i32)
    (local.set $c1 (call $at (i32.add (local.get $i) (i32.const 1))))
    (local.set $c2 (call $at (i32.add (local.get $i) (i32.const 2))))
    ;; % %:%: %: %= %>
    (if (i32.eq (local.get $c) (i32.const 37))
      (then
        (if (i32.eq (local.get $c1) (i32.const 58))
          (then
            (return
              (select (i32.const 4) (i32.const 2)
                (i32.and
                  (i32.eq (local.get $c2) (i32.const 37))
                  (i32.eq (call $at (i32.add (local.get $i) (i32.const 3))) (i32.const 58)))))))
        (return (select (i32.const 2) (i32.const 1) (i32.or (i32.eq (local.get $c1) (i32.const 61)) (i32.eq (local.get $c1) (i32.const 62)))))))
    ;; . ... .*
    (if (i32.eq (local.get $c) (i32.const 46))
      (then
        (if (i32.and (i32.eq (local.get $c1) (i32.const 46)) (i32.eq (local.get $c2) (i32.const 46))) (then (return (i32.const 3))))
        (return (select (i32.const 2) (i32.const 1) (i32.eq (local.get $c1) (i32.const 42))))))
    ;; < <<= <=> << <= <: <%
    (if (i32.eq (local.get $c) (i32.const 60))
      (then
        (if (i32.eq (local.get $c1) (i32.const 60)) (then (return (select (i32.const 3) (i32.const 2) (i32.eq (local.get $c2) (i32.const 61))))))
        (if (i32.eq (local.get $c1) (i32.const 61)) (then (return (select (i32.const 3) (i32.const 2) (i32.eq (local.get $c2) (i32.const 62))))))
        (return (select (i32.const 2) (i32.const 1) (i32.or (i32.eq (local.get $c1) (i32.const 58)) (i32.eq (local.get $c1) (i32.const 37)))))))
    ;; > >>= >> >=
    (if (i32.eq (local.get $c) (i32.const 62))
      (then
        (if (i32.eq (local.get $c1) (i32.const 62)) (then (return (select (i32.const 3) (i32.const 2) (i32.eq (local.get $c2) (i32.const 61))))))
        (return (select (i32.const 2) (i32.const 1) (i32.eq (local.get $c1) (i32.const 61))))))
    ;; - ->* -- -= ->
    (if (i32.eq (local.get $c) (i32.const 45))
      (then
        (if (i32.eq (local.get $c1) (i32.const 62)) (then (return (select (i32.const 3) (i32.const 2) (i32.eq (local.get $c2) (i32.const 42))))))
        (return (select (i32.const 2) (i32.const 1) (i32.or (i32.eq (local.get $c1) (i32.const 45)) (i32.eq (local.get $c1) (i32.const 61)))))))
    ;; # ##
    (if (i32.eq (local.get $c) (i32.const 35))
      (then (return (select (i32.const 2) (i32.const 1) (i32.eq (local.get $c1) (i32.const 35))))))
    ;; & && &=, | || |=, + ++ +=: the character doubled, or with =
    (if (i32.or
          (i32.or (i32.eq (local.get $c) (i32.const 38)) (i32.eq (local.get $c) (i32.const 124)))
          (i32.eq (local.get $c) (i32.const 43)))
      (then (return (select (i32.const 2) (i32.const 1) (i32.or (i32.eq (local.get $c1) (local.get $c)) (i32.eq (local.get $c1) (i32.const 61)))))))
    ;; : :: :>
    (if (i32.eq (local.get $c) (i32.const 58))
      (then (return (select (i32.const 2) (i32.const 1) (i32.or (i32.eq (local.get $c1) (i32.const 58)) (i32.eq (local.get $c1) (i32.const 62)))))))
    ;; = == ! != * *= / /= ^ ^=
    (if (i32.or
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 61)) (i32.eq (local.get $c) (i32.const 33)))
            (i32.or (i32.eq (local.get $c) (i32.const 42)) (i32.eq (local.get $c) (i32.const 47))))
          (i32.eq (local.get $c) (i32.const 94)))
      (then (return (select (i32.const 2) (i32.const 1) (i32.eq (local.get $c1) (i32.const 61))))))
    (i32.const 1))

  (func (export "scan") (param $index i32) (param $end i32) (param $state i32) (param $mode i32) (result i32)
    (local $c i32) (local $c1 i32) (local $start i32) (local $kind i32) (local $bol i32) (local $space i32) (local $found i32) (local $n i32)
    (local.set $bol (i32.and (local.get $state) (i32.const 1)))
    (local.set $space (i32.and (i32.shr_u (local.get $state) (i32.const 1)) (i32.const 1)))
    (block $none
      (loop $tokens
        ;; Passing over lines (mode 1 or 2), after a token: a plain rest of its line at once.
        (if (i32.and (i32.ne (local.get $mode) (i32.const 0)) (i32.eqz (local.get $bol)))
          (then (local.set $index (call $plainRest (local.get $index) (local.get $end)))))
        ;; Spaces, newlines and comments up to the token's first code unit.
        (loop $between
          (br_if $none (i32.ge_s (local.get $index) (local.get $end)))
          (local.set $c (i32.load16_u offset=256 (i32.shl (local.get $index) (i32.const 1))))
          (if (i32.eq (local.get $c) (i32.const 10))
            (then
              (local.set $bol (i32.const 1))
              (local.set $space (i32.const 1))
              (local.set $index (i32.add (local.get $index) (i32.const 1)))
              (br $between)))
          (if (i32.lt_u (local.get $c) (i32.const 128))
            (then
              (if (i32.and (i32.load8_u offset=16 (local.get $c)) (i32.const 16))
                (then
                  (local.set $space (i32.const 1))
                  (local.set $index (i32.add (local.get $index) (i32.const 1)))
                  (br $between)))))
          (if (i32.eq (local.get $c) (i32.const 47))
            (then
              (local.set $c1 (i32.load16_u offset=258 (i32.shl (local.get $index) (i32.const 1))))
              (if (i32.eq (local.get $c1) (i32.const 47))
                (then
                  (local.set $space (i32.const 1))
                  (local.set $found (call $newlineFrom (i32.add (local.get $index) (i32.const 2))))
                  (local.set $index (select (local.get $end) (local.get $found) (i32.lt_s (local.get $found) (i32.const 0))))
                  (br $between)))
              (if (i32.eq (local.get $c1) (i32.const 42))
                (then
                  (local.set $space (i32.const 1))
                  (local.set $found (call $commentEndFrom (i32.add (local.get $index) (i32.const 2))))
                  (local.set $index
                    (select (local.get $end) (i32.add (local.get $found) (i32.const 2)) (i32.lt_s (local.get $found) (i32.const 0))))
                  (br $between))))))
        (local.set $start (local.get $index))
        (block $kinded
          (if (call $is (local.get $c) (i32.const 2))
            (then
              ;; The rest of the identifier: class 1, or a code unit from 128 up.
              (loop $rest
                (local.set $index (i32.add (local.get $index) (i32.const 1)))
                (local.set $c1 (i32.load16_u offset=256 (i32.shl (local.get $index) (i32.const 1))))
                (br_if $rest (i32.ge_u (local.get $c1) (i32.const 128)))
                (br_if $rest (i32.and (i32.load8_u offset=16 (local.get $c1)) (i32.const 1))))
              ;; $c1 is the code unit after it: a quote after an encoding prefix makes it a literal's.
              (if (i32.and
                    (i32.or (i32.eq (local.get $c1) (i32.const 34)) (i32.eq (local.get $c1) (i32.const 39)))
                    (i32.le_s (i32.sub (local.get $index) (local.get $start)) (i32.const 3)))
                (then
                  (local.set $n (i32.sub (local.get $index) (local.get $start)))
                  (if (i32.and
                        (i32.eq (local.get $c1) (i32.const 34))
                        (i32.eq (i32.load16_u offset=254 (i32.shl (local.get $index) (i32.const 1))) (i32.const 82)))
                    (then
                      (if (i32.or
                            (i32.eq (local.get $n) (i32.const 1))
                            (call $isEncodingPrefix (local.get $start) (i32.sub (local.get $n) (i32.const 1))))
                        (then
                          (local.set $kind (i32.const 5))
                          (br $kinded)))))
                  (if (i32.le_s (local.get $n) (i32.const 2))
                    (then
                      (if (call $isEncodingPrefix (local.get $start) (local.get $n))
                        (then
                          (local.set $index (call $quotedEnd (local.get $index) (local.get $c1)))
                          (local.set $kind (select (i32.const 2) (i32.const 3) (i32.eq (local.get $c1) (i32.const 34))))
                          (br $kinded)))))))
              (local.set $kind (i32.const 0))
              (br $kinded)))
          ;; A pp-number: digits, letters, _, dots, signed exponents (e+ E- p+ P-), and a digit
          ;; separator (') before a letter or digit; it ends at `end` at the latest.
          (if (i32.or
                (call $is (local.get $c) (i32.const 4))
                (i32.and
                  (i32.eq (local.get $c) (i32.const 46))
                  (call $is (i32.load16_u offset=258 (i32.shl (local.get $index) (i32.const 1))) (i32.const 4))))
            (then
              (local.set $index (i32.add (local.get $index) (i32.const 1)))
              (loop $rest
                (local.set $c1 (i32.load16_u offset=256 (i32.shl (local.get $index) (i32.const 1))))
                (if (i32.lt_u (local.get $c1) (i32.const 128))
                  (then
                    (if (i32.and
                          (i32.or
                            (i32.eq (i32.or (local.get $c1) (i32.const 32)) (i32.const 101))
                            (i32.eq (i32.or (local.get $c1) (i32.const 32)) (i32.const 112)))
                          (i32.or
                            (i32.eq (i32.load16_u offset=258 (i32.shl (local.get $index) (i32.const 1))) (i32.const 43))
                            (i32.eq (i32.load16_u offset=258 (i32.shl (local.get $index) (i32.const 1))) (i32.const 45))))
                      (then
                        (local.set $index (i32.add (local.get $index) (i32.const 2)))
                        (br $rest)))
                    (if (i32.and (i32.load8_u offset=16 (local.get $c1)) (i32.const 8))
                      (then
                        (local.set $index (i32.add (local.get $index) (i32.const 1)))
                        (br $rest)))
                    ;; A digit separator: ' before a letter or a digit (class 1 without _ and $).
                    (if (i32.eq (local.get $c1) (i32.const 39))
                      (then
                        (local.set $c1 (i32.load16_u offset=258 (i32.shl (local.get $index) (i32.const 1))))
                        (if (i32.and
                              (i32.lt_u (local.get $c1) (i32.const 128))
                              (i32.and
                                (i32.ne (i32.and (i32.load8_u offset=16 (local.get $c1)) (i32.const 1)) (i32.const 0))
                                (i32.and (i32.ne (local.get $c1) (i32.const 95)) (i32.ne (local.get $c1) (i32.const 36)))))
                          (then
                            (local.set $index (i32.add (local.get $index) (i32.const 1)))
                            (br $rest))))))))
              (if (i32.gt_s (local.get $index) (local.get $end)) (then (local.set $index (local.get $end))))
              (local.set $kind (i32.const 1))
              (br $kinded)))
          (if (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 39)))
            (then
              (local.set $index (call $quotedEnd (local.get $index) (local.get $c)))
              (local.set $kind (select (i32.const 2) (i32.const 3) (i32.eq (local.get $c) (i32.const 34))))
              (br $kinded)))
          (local.set $index (i32.add (local.get $index) (call $punctuatorLength (local.get $index) (local.get $c))))
          (local.set $kind (i32.const 4)))
        (i32.store (i32.const 0) (local.get $start))
        (i32.store (i32.const 4)
          (i32.or (local.get $kind) (i32.or (i32.shl (local.get $bol) (i32.const 3)) (i32.shl (local.get $space) (i32.const 4)))))
        (if (i32.or (i32.eqz (local.get $mode)) (i32.eq (local.get $kind) (i32.const 5)))
          (then (return (local.get $index))))
        ;; mode 1: a line's first token; mode 2: a line's first token that is `#` alone.
        (if (local.get $bol)
          (then
            (if (i32.eq (local.get $mode) (i32.const 1)) (then (return (local.get $index))))
            (if (i32.and
                  (i32.eq (local.get $c) (i32.const 35))
                  (i32.eq (local.get $index) (i32.add (local.get $start) (i32.const 1))))
              (then (return (local.get $index))))))
        (local.set $bol (i32.const 0))
        (local.set $space (i32.const 0))
        (br $tokens)))
    (i32.const -1)))
