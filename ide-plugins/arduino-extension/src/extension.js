'use strict';
// VS Code / Arduino IDE 2.x entry point: the real API goes into BoardbridgeExtension.
const vscode = require('vscode');
const { BoardbridgeExtension } = require('./boardbridge-extension.js');

let extension;

async function activate(context) {
  extension = new BoardbridgeExtension(vscode, context);
  await extension.start();
}

async function deactivate() {
  await extension?.stop();
}

module.exports = { activate, deactivate };
