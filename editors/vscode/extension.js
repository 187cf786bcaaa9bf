// Starts `jtoo lsp` (the JTOO/HTOO language server) for .jtoo and .htoo
// files. The program is the setting `jtoo.server.path` (default: `jtoo`
// on PATH).
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

async function activate(context) {
  const command = vscode.workspace.getConfiguration('jtoo').get('server.path') || 'jtoo';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'jtoo',
    'JTOO language server',
    { run: server, debug: server },
    {
      documentSelector: [
        { language: 'jtoo' },
        { language: 'htoo' },
      ],
    },
  );
  context.subscriptions.push(client);
  await client.start();
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
