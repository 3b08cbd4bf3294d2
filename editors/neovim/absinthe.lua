-- absinthe's language server for `.dom` files in Neovim's built-in LSP client (Neovim 0.7 or
-- later). Copy this file to ~/.config/nvim/lua/absinthe.lua and add `require('absinthe')` to
-- your init.lua; `absinthe` must be on PATH (or set `vim.g.absinthe_command`, e.g.
-- `{ '/path/to/absinthe', 'lsp' }`). The book's "Editors" chapter explains each step;
-- scripts/neovim-tests.sh runs this very file in a headless Neovim.

local group = vim.api.nvim_create_augroup('absinthe', { clear = true })

-- `.dom` files are absinthe rule files.
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = '*.dom',
  callback = function() vim.bo.filetype = 'dom' end,
})

-- One server for every `.dom` buffer: started with the first, attached to each.
local client_id = nil
vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = 'dom',
  callback = function(args)
    if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({
        name = 'absinthe',
        cmd = vim.g.absinthe_command or { 'absinthe', 'lsp' },
        root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h'),
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
    -- `//` comments, four-space indentation, and completion with <C-x><C-o>.
    vim.bo[args.buf].commentstring = '// %s'
    vim.bo[args.buf].shiftwidth = 4
    vim.bo[args.buf].expandtab = true
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end,
})
