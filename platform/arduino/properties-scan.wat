;; The byte scanner of a properties file (boards.txt), for loadGroupedWithLocal (properties.ts):
;; its lines as runs of one group's key lines, the malformed lines, and the lines it leaves to the
;; caller, with their line numbers, read from the file's bytes without decoding them into text.
;; scripts/assemble-wasm.mjs assembles it into properties-scan-wasm.ts.
;;
;; A line ends at LF, CR LF or a lone CR, as the text reader's CR LF and CR become LF. Of a line
;; whose bytes are all ASCII (below 0x80) it decides what the text reader (properties.ts lineParts)
;; decides, with the same trimming (a line's ASCII spaces are 9, 11, 12 and 32): blank, a comment
;; (`#` first), malformed (no `=`), no key of a group (no `.` before the key's end, or the key
;; `<head><suffix>`, the running OS's undotted key), or a key line of the group `<head>`, the text
;; before its first `.`. A line holding a byte from 0x80 up is the caller's to decode as UTF-8
;; and judge: its spaces may be Unicode's.
;;
;; scan(start, end, out, capacity, suffix, suffixLength, flags) reads the lines of memory[start, end),
;; which ends after a line's end or at the file's end, and writes records of six i32 at `out`.
;; `flags` says what the bytes hold: 1 a byte from 0x80 up, 2 a CR (without them, the lines that go
;; on a run are read without looking for them). The records:
;;   0 run        lines [start, end) (end after the last one's line end), the first one's number,
;;                and its head's bytes [headStart, headStart + headLength): consecutive key lines
;;                of one group;
;;   1 malformed  the line's text, trimmed, [start, end), its number;
;;   2 other      a line with a byte from 0x80 up, [start, end) without its line end, its number.
;; It stops at `end`, or before a line when `capacity` records could not take that line's, and
;; returns the records written; `stop` is where it stopped, `line` the number of the line there
;; (the caller sets it to 1 at a file's start). Up to 16 bytes after `end`, and 16 after the
;; suffix, are read and not used.
(module
  (memory (export "memory") 1)
  (global $stop (export "stop") (mut i32) (i32.const 0))
  (global $line (export "line") (mut i32) (i32.const 1))

  ;; An ASCII space inside a line: tab, vertical tab, form feed, space.
  (func $space (param $c i32) (result i32)
    (i32.or
      (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 9)))
      (i32.lt_u (i32.sub (local.get $c) (i32.const 11)) (i32.const 2))))

  ;; The first of [from, to) that is not preceded by a space, from `to` back: `to` with the spaces before it removed.
  (func $trimEnd (param $to i32) (param $from i32) (result i32)
    (block $done
      (loop $back
        (br_if $done (i32.le_u (local.get $to) (local.get $from)))
        (br_if $done (i32.eqz (call $space (i32.load8_u (i32.sub (local.get $to) (i32.const 1))))))
        (local.set $to (i32.sub (local.get $to) (i32.const 1)))
        (br $back)))
    (local.get $to))

  ;; Whether the `length` bytes at `a` and at `b` are the same, 16 at a time (up to 15 more bytes are read, not used).
  (func $same (param $a i32) (param $b i32) (param $length i32) (result i32)
    (local $wanted i32)
    (loop $chunks
      (if (i32.lt_u (local.get $length) (i32.const 16))
        (then
          (local.set $wanted (i32.sub (i32.shl (i32.const 1) (local.get $length)) (i32.const 1)))
          (return
            (i32.eq
              (i32.and (i8x16.bitmask (i8x16.eq (v128.load (local.get $a)) (v128.load (local.get $b)))) (local.get $wanted))
              (local.get $wanted)))))
      (if (i32.ne (i8x16.bitmask (i8x16.eq (v128.load (local.get $a)) (v128.load (local.get $b)))) (i32.const 0xffff))
        (then (return (i32.const 0))))
      (local.set $a (i32.add (local.get $a) (i32.const 16)))
      (local.set $b (i32.add (local.get $b) (i32.const 16)))
      (local.set $length (i32.sub (local.get $length) (i32.const 16)))
      (br $chunks))
    (unreachable))

  ;; Where the line after the line end at `at` starts (CR LF is one line end), never past `end`.
  (func $nextLine (param $at i32) (param $end i32) (result i32)
    (local $next i32)
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (local.get $end))))
    (local.set $next (i32.add (local.get $at) (i32.const 1)))
    (if (i32.and
          (i32.eq (i32.load8_u (local.get $at)) (i32.const 13))
          (i32.and (i32.lt_u (local.get $next) (local.get $end)) (i32.eq (i32.load8_u (local.get $next)) (i32.const 10))))
      (then (local.set $next (i32.add (local.get $next) (i32.const 1)))))
    (local.get $next))

  (func $record (param $at i32) (param $kind i32) (param $start i32) (param $end i32) (param $line i32) (param $head i32) (param $headLength i32)
    (i32.store (local.get $at) (local.get $kind))
    (i32.store offset=4 (local.get $at) (local.get $start))
    (i32.store offset=8 (local.get $at) (local.get $end))
    (i32.store offset=12 (local.get $at) (local.get $line))
    (i32.store offset=16 (local.get $at) (local.get $head))
    (i32.store offset=20 (local.get $at) (local.get $headLength)))

  (func (export "scan") (param $p i32) (param $end i32) (param $out i32) (param $capacity i32) (param $suffix i32) (param $suffixLength i32) (param $flags i32) (result i32)
    (local $seen v128) (local $n i32) (local $line i32) (local $q i32) (local $bytes v128) (local $ends i32) (local $before i32) (local $found i32)
    (local $lineEnd i32) (local $next i32) (local $equals i32) (local $dot i32) (local $high i32) (local $first i32) (local $keyEnd i32)
    (local $headBytes v128) (local $run i32) (local $runStart i32) (local $runEnd i32) (local $runLine i32) (local $head i32) (local $headLength i32) (local $length i32)
    (local.set $line (global.get $line))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ;; A line writes at most two records (the run it ends and its own), and the scan one more at its end.
        (br_if $done (i32.gt_u (i32.add (local.get $n) (i32.const 3)) (local.get $capacity)))
        (block $general
          ;; Most lines go on the open run: they start with its head and the dot after it. Such a line
          ;; is one of the run's when it is ASCII, has an `=`, and its key is not `<head><suffix>`.
          (br_if $general (i32.eqz (local.get $run)))
          (br_if $general (i32.ge_u (i32.add (local.get $p) (local.get $headLength)) (local.get $end)))
          (if (i32.lt_u (local.get $headLength) (i32.const 15))
            (then
              ;; The head and its dot, 16 bytes at a time: the bits of the bytes that must be the same.
              (local.set $found (i32.sub (i32.shl (i32.const 1) (i32.add (local.get $headLength) (i32.const 1))) (i32.const 1)))
              (br_if $general
                (i32.ne
                  (i32.and (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $headBytes))) (local.get $found))
                  (local.get $found))))
            (else
              (br_if $general (i32.eqz (call $same (local.get $p) (local.get $head) (i32.add (local.get $headLength) (i32.const 1)))))))
          (local.set $q (i32.add (local.get $p) (i32.add (local.get $headLength) (i32.const 1))))
          (local.set $equals (i32.const -1))
          (local.set $seen (v128.const i64x2 0 0))
          (block $ended
            (loop $blocks
              (local.set $bytes (v128.load (local.get $q)))
              (local.set $ends (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 10)))))
              (if (i32.and (local.get $flags) (i32.const 2))
                (then (local.set $ends (i32.or (local.get $ends) (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 13))))))))
              (if (i32.lt_u (i32.sub (local.get $end) (local.get $q)) (i32.const 16))
                (then (local.set $ends (i32.or (local.get $ends) (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $q)))))))
              ;; The first `=` from the head's dot on, maybe after the line's end.
              (if (i32.lt_s (local.get $equals) (i32.const 0))
                (then
                  (local.set $found (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 61)))))
                  (if (local.get $found) (then (local.set $equals (i32.add (local.get $q) (i32.ctz (local.get $found))))))))
              (br_if $ended (local.get $ends))
              (local.set $seen (v128.or (local.get $seen) (local.get $bytes)))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br $blocks)))
          (local.set $lineEnd (i32.add (local.get $q) (i32.ctz (local.get $ends))))
          (br_if $general (i32.lt_s (local.get $equals) (i32.const 0)))
          (br_if $general (i32.ge_u (local.get $equals) (local.get $lineEnd)))
          ;; A byte from 0x80 up, in the blocks before the last or in the last one before the line end.
          (if (i32.and (local.get $flags) (i32.const 1))
            (then
              (br_if $general
                (i32.or
                  (i8x16.bitmask (local.get $seen))
                  (i32.and
                    (i8x16.bitmask (local.get $bytes))
                    (i32.sub (i32.and (local.get $ends) (i32.sub (i32.const 0) (local.get $ends))) (i32.const 1)))))))
          (local.set $dot (i32.add (local.get $p) (local.get $headLength)))
          (local.set $keyEnd (call $trimEnd (local.get $equals) (local.get $p)))
          (if (i32.eq (i32.sub (local.get $keyEnd) (local.get $dot)) (local.get $suffixLength))
            (then (br_if $general (call $same (local.get $dot) (local.get $suffix) (local.get $suffixLength)))))
          (local.set $next (call $nextLine (local.get $lineEnd) (local.get $end)))
          (local.set $runEnd (local.get $next))
          (local.set $line (i32.add (local.get $line) (i32.const 1)))
          (local.set $p (local.get $next))
          (br $lines))

        ;; Any other line: its end, its first `=` and `.`, and whether it holds a byte from 0x80 up.
        (local.set $q (local.get $p))
        (local.set $equals (i32.const -1))
        (local.set $dot (i32.const -1))
        (local.set $high (i32.const 0))
        (block $ended
          (loop $blocks
            (local.set $bytes (v128.load (local.get $q)))
            (local.set $ends
              (i8x16.bitmask
                (v128.or
                  (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 10)))
                  (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 13))))))
            (if (i32.lt_u (i32.sub (local.get $end) (local.get $q)) (i32.const 16))
              (then (local.set $ends (i32.or (local.get $ends) (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $q)))))))
            (local.set $before (i32.sub (i32.and (local.get $ends) (i32.sub (i32.const 0) (local.get $ends))) (i32.const 1)))
            (local.set $high (i32.or (local.get $high) (i32.and (i8x16.bitmask (local.get $bytes)) (local.get $before))))
            (if (i32.lt_s (local.get $equals) (i32.const 0))
              (then
                (local.set $found (i32.and (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 61)))) (local.get $before)))
                (if (local.get $found) (then (local.set $equals (i32.add (local.get $q) (i32.ctz (local.get $found))))))))
            (if (i32.lt_s (local.get $dot) (i32.const 0))
              (then
                (local.set $found (i32.and (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 46)))) (local.get $before)))
                (if (local.get $found) (then (local.set $dot (i32.add (local.get $q) (i32.ctz (local.get $found))))))))
            (if (local.get $ends)
              (then
                (local.set $lineEnd (i32.add (local.get $q) (i32.ctz (local.get $ends))))
                (br $ended)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $blocks)))
        (local.set $next (call $nextLine (local.get $lineEnd) (local.get $end)))

        (block $judged
          (block $inNoGroup
            (if (local.get $high)
              (then
                (if (local.get $run)
                  (then
                    (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 0) (local.get $runStart) (local.get $runEnd) (local.get $runLine) (local.get $head) (local.get $headLength))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))
                    (local.set $run (i32.const 0))))
                (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 2) (local.get $p) (local.get $lineEnd) (local.get $line) (i32.const 0) (i32.const 0))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (br $judged)))
            (local.set $first (local.get $p))
            (block $text
              (loop $spaces
                (br_if $text (i32.ge_u (local.get $first) (local.get $lineEnd)))
                (br_if $text (i32.eqz (call $space (i32.load8_u (local.get $first)))))
                (local.set $first (i32.add (local.get $first) (i32.const 1)))
                (br $spaces)))
            ;; Blank, or a comment.
            (br_if $inNoGroup (i32.eq (local.get $first) (local.get $lineEnd)))
            (br_if $inNoGroup (i32.eq (i32.load8_u (local.get $first)) (i32.const 35)))
            (if (i32.lt_s (local.get $equals) (i32.const 0))
              (then
                (if (local.get $run)
                  (then
                    (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 0) (local.get $runStart) (local.get $runEnd) (local.get $runLine) (local.get $head) (local.get $headLength))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))
                    (local.set $run (i32.const 0))))
                (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 1) (local.get $first) (call $trimEnd (local.get $lineEnd) (local.get $first)) (local.get $line) (i32.const 0) (i32.const 0))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (br $judged)))
            (local.set $keyEnd (call $trimEnd (local.get $equals) (local.get $first)))
            ;; An undotted key, or the running OS's `<head><suffix>`, is in no group.
            (br_if $inNoGroup (i32.lt_s (local.get $dot) (i32.const 0)))
            (br_if $inNoGroup (i32.ge_u (local.get $dot) (local.get $keyEnd)))
            (if (i32.eq (i32.sub (local.get $keyEnd) (local.get $dot)) (local.get $suffixLength))
              (then (br_if $inNoGroup (call $same (local.get $dot) (local.get $suffix) (local.get $suffixLength)))))
            (local.set $length (i32.sub (local.get $dot) (local.get $first)))
            ;; A key line of the open run's group (indented, or after its head's undotted key).
            (if (local.get $run)
              (then
                (if (i32.eq (local.get $length) (local.get $headLength))
                  (then
                    (if (call $same (local.get $first) (local.get $head) (local.get $length))
                      (then
                        (local.set $runEnd (local.get $next))
                        (br $judged)))))
                (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 0) (local.get $runStart) (local.get $runEnd) (local.get $runLine) (local.get $head) (local.get $headLength))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (local.set $run (i32.const 1))
            (local.set $runStart (local.get $p))
            (local.set $runEnd (local.get $next))
            (local.set $runLine (local.get $line))
            (local.set $head (local.get $first))
            (local.set $headLength (local.get $length))
            (local.set $headBytes (v128.load (local.get $first)))
            (br $judged))
          ;; A line in no group (blank, a comment, an undotted key) leaves the open run open: the run's
          ;; lines are its group's key lines and the lines in no group between them.
          (nop))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        (local.set $p (local.get $next))
        (br $lines)))
    (if (local.get $run)
      (then
        (call $record (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 24))) (i32.const 0) (local.get $runStart) (local.get $runEnd) (local.get $runLine) (local.get $head) (local.get $headLength))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))))
    (global.set $stop (local.get $p))
    (global.set $line (local.get $line))
    (local.get $n))
)
