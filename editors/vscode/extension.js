// The client half of absinthe's `.dom` support: starts `absinthe lsp` for `.dom` files (the
// executable is the setting `absinthe.path`) and lets VS Code's language client do the rest.
const { workspace } = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const command = workspace.getConfiguration('absinthe').get('path') || 'absinthe';
  client = new LanguageClient(
    'absinthe',
    'absinthe .dom',
    { command, args: ['lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'dom' },
        { scheme: 'untitled', language: 'dom' },
      ],
    },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
