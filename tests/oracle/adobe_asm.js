#!/usr/bin/env node
// The assembler oracle: OpenFL's AGALMiniAssembler (npm package openfl 8.9.6, its
// port of Adobe's AGALMiniAssembler.as), installed in tests/oracle by
// `npm ci --prefix tests/oracle`. Batch mode, since node starts slowly: one JSON
// object a line on stdin,
//   {"stage": "vertex"|"fragment", "version": N, "text": "..."}      or
//   {"stage": ..., "version": N, "hex": "<the text's bytes in hex>"}
// (bytes are decoded as UTF-8 with TextDecoder, which drops a byte order mark, as a
// loader hands text to the assembler), and one JSON object a line on stdout:
//   {"hex": "<the program's bytes>", "bad_lines": [i, ...]}   accepted
//   {"error": "<the assembler's error field>", "bad_lines": [...]}   rejected
// bad_lines are the lines (counting from 0, as the assembler counts them) it
// skipped with its "warning: bad line" log message.
//
// One change to the package, as the earlier oracle had: `ted` (0x26, fragment only,
// version 2) is added to the assembler's opcode map. OpenFL 8.9.6, like Adobe's
// 2015 source, has that line commented out ("ted is not available in AGAL2"), so
// it skips every ted line; Adobe's AGAL2 releases shipped it enabled, and the
// project's corpus uses it. `--no-ted` runs the package exactly as published.
//
// Exit status: 0, or 2 when the package is missing or not version 8.9.6 (the
// tests that call this then fail, never skip).
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

const ORACLE = __dirname; // the npm package beside this script (tests/oracle/package.json)
const VERSION = "8.9.6";

function load() {
    let pkg;
    try {
        pkg = JSON.parse(fs.readFileSync(path.join(ORACLE, "node_modules", "openfl", "package.json"), "utf8"));
    } catch (e) {
        process.stderr.write(`adobe_asm.js: the npm package openfl is not installed in ${ORACLE}: ` +
                             "run `npm ci --prefix tests/oracle`\n");
        process.exit(2);
    }
    if (pkg.version !== VERSION) {
        process.stderr.write(`adobe_asm.js: openfl ${pkg.version} is installed, the oracle is ${VERSION}\n`);
        process.exit(2);
    }
    // The package's lime timer reads window.performance; node has performance globally.
    if (typeof globalThis.window === "undefined") globalThis.window = globalThis;
    const gen = path.join(ORACLE, "node_modules", "openfl", "lib", "_gen");
    const Assembler = require(path.join(gen, "openfl", "utils", "AGALMiniAssembler")).default;
    const OpCode = require(path.join(gen, "openfl", "utils", "_AGALMiniAssembler", "OpCode")).default;
    const Log = require(path.join(gen, "lime", "utils", "Log")).default;
    return {Assembler, OpCode, Log};
}

function main() {
    const noTed = process.argv.includes("--no-ted");
    const {Assembler, OpCode, Log} = load();
    const asm = new Assembler(); // fills the static opcode, register and sampler maps
    if (!noTed) {
        // OP_FRAG_ONLY (0x20) | OP_SPECIAL_TEX (0x08) | OP_VERSION2 (0x100), as in Adobe's AGAL2 releases
        Assembler.OPMAP.set("ted", new OpCode("ted", 3, 0x26, 0x20 | 0x08 | 0x100));
    }
    let badLines = [];
    Log.warn = (message) => {
        const m = /^warning: bad line (\d+): /.exec(String(message));
        if (m) badLines.push(Number(m[1]));
    };
    Log.info = () => {}; // it logs every error to stdout
    const decoder = new TextDecoder("utf-8");
    const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
    const out = [];
    rl.on("line", (line) => {
        if (!line.trim()) return;
        const job = JSON.parse(line);
        const text = job.hex !== undefined ? decoder.decode(Buffer.from(job.hex, "hex")) : job.text;
        badLines = [];
        const code = asm.assemble(job.stage, text, job.version);
        if (asm.error !== "") {
            out.push(JSON.stringify({error: asm.error, bad_lines: badLines}));
        } else {
            const bytes = Buffer.alloc(code.length);
            for (let i = 0; i < code.length; i++) bytes[i] = code.get(i);
            out.push(JSON.stringify({hex: bytes.toString("hex"), bad_lines: badLines}));
        }
        if (out.length >= 256) process.stdout.write(out.splice(0).join("\n") + "\n");
    });
    rl.on("close", () => {
        if (out.length) process.stdout.write(out.join("\n") + "\n");
    });
}

main();
