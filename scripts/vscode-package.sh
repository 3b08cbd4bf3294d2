#!/usr/bin/env bash
# Packages the VS Code extension (editors/vscode) with the registry's @vscode/vsce at the version
# its package-lock.json pins, into target/vscode, and checks that the package holds the client,
# the grammar and the language client library. VS Code itself is not run here: the server's
# side is tested over stdio (cli/tests/lsp.rs) and in Neovim (scripts/neovim-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --prefix editors/vscode --no-audit --no-fund --loglevel=error
mkdir -p target/vscode
(cd editors/vscode && npx vsce package --skip-license --allow-missing-repository \
    --out ../../target/vscode/absinthe-dom.vsix)
listing=$(unzip -l target/vscode/absinthe-dom.vsix)
for part in extension/extension.js extension/package.json extension/syntaxes/dom.tmLanguage.json \
    extension/language-configuration.json extension/node_modules/vscode-languageclient/package.json; do
    if ! grep -q " $part\$" <<<"$listing"; then
        echo "the package lacks $part" >&2
        exit 1
    fi
done
echo "target/vscode/absinthe-dom.vsix: client, grammar and language client packaged"
