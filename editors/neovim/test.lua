-- A headless Neovim with the setup of editors/neovim/absinthe.lua, on a `.dom` file with an
-- error: waits for the diagnostic, asks for hover and definition, applies a completion that
-- fixes the error (the diagnostic goes away), formats a mangled line, and prints one TAP line
-- per check. Run by scripts/neovim-tests.sh, which sets ABSINTHE (the binary) and DOM_FILE (a
-- scratch copy of the file below); exits 1 on the first failure.

local absinthe = assert(os.getenv('ABSINTHE'), 'ABSINTHE names the absinthe binary')
local file = assert(os.getenv('DOM_FILE'), 'DOM_FILE names a scratch .dom file')

local checks = 0
local function ok(condition, what, detail)
  checks = checks + 1
  if condition then
    io.stdout:write(string.format('ok %d - %s\n', checks, what))
  else
    io.stdout:write(string.format('not ok %d - %s\n# %s\n', checks, what, vim.inspect(detail)))
    io.stdout:flush()
    os.exit(1)
  end
end

local source = [[
lattice Sign = finite { Bot < Neg < Top, Bot < Pos < Top }

product P {
    sign: Sign,
    range: Interval uses builtin,
}

transfer neg on "-" (a: P, b: P) -> Sign = a.sgn;
]]
local handle = assert(io.open(file, 'w'))
handle:write(source)
handle:close()

vim.g.absinthe_command = { absinthe, 'lsp' }
dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/absinthe.lua')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
ok(vim.bo.filetype == 'dom', 'a .dom file has the filetype dom', vim.bo.filetype)

-- The diagnostic, where `absinthe dom check` puts it.
local diagnostics = {}
vim.wait(20000, function()
  diagnostics = vim.diagnostic.get(0)
  return #diagnostics > 0
end, 20)
ok(#diagnostics == 1, 'one diagnostic arrives', diagnostics)
local d = diagnostics[1]
ok(d.lnum == 7 and d.col == 45, 'at line 8, column 46 (`sgn`)', d)
ok(d.message:find('`P` has no field `sgn`', 1, true) ~= nil, 'with dom check\'s message', d.message)
ok(d.message:find('did you mean `sign`', 1, true) ~= nil, 'and its help', d.message)

local function request(method, line, col, extra)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(),
    position = { line = line, character = col },
  }
  for k, v in pairs(extra or {}) do params[k] = v end
  local answers = vim.lsp.buf_request_sync(0, method, params, 10000) or {}
  for _, answer in pairs(answers) do
    if answer.err then return nil, answer.err end
    return answer.result
  end
  return nil, 'no answer'
end

-- Hover on the lattice `Sign` in `sign: Sign`.
local hover = request('textDocument/hover', 3, 11)
local text = hover and hover.contents and hover.contents.value or ''
ok(text:find('Finite, ordered by Bot < Neg < Top, Bot < Pos < Top', 1, true) ~= nil,
  'hover on a lattice shows its order', text)

-- Go to the definition of `P` in the rule's parameter, and jump there.
local location = request('textDocument/definition', 7, 24)
ok(location and location.range and location.range.start.line == 2, 'the definition of P is on line 3',
  location)
vim.lsp.util.jump_to_location(location, 'utf-16')
local cursor = vim.api.nvim_win_get_cursor(0)
ok(cursor[1] == 3 and cursor[2] == 8, 'the cursor jumped to `P`', cursor)

-- Completion after `a.`: the product's components; applying `sign` fixes the error.
vim.api.nvim_buf_set_text(0, 7, 45, 7, 48, {})
local items = request('textDocument/completion', 7, 45)
items = items and (items.items or items) or {}
local labels = {}
for _, item in ipairs(items) do table.insert(labels, item.label) end
table.sort(labels)
ok(vim.deep_equal(labels, { 'range', 'sign' }), 'completion after `a.` offers the components', labels)
local chosen
for _, item in ipairs(items) do
  if item.label == 'sign' then chosen = item end
end
vim.api.nvim_buf_set_text(0, 7, 45, 7, 45, { chosen.insertText or chosen.label })
ok(vim.api.nvim_buf_get_lines(0, 7, 8, false)[1]:find('a.sign;', 1, true) ~= nil,
  'the completion is applied', vim.api.nvim_buf_get_lines(0, 7, 8, false))
local cleared = vim.wait(20000, function() return #vim.diagnostic.get(0) == 0 end, 20)
ok(cleared, 'the diagnostic goes away', vim.diagnostic.get(0))

-- Formatting: a mangled line comes back to four spaces.
vim.api.nvim_buf_set_lines(0, 3, 4, false, { '          sign: Sign,   ' })
vim.lsp.buf.formatting_sync(nil, 10000)
local line = vim.api.nvim_buf_get_lines(0, 3, 4, false)[1]
ok(line == '    sign: Sign,', 'formatting re-indents a line', line)

io.stdout:write(string.format('1..%d\n', checks))
io.stdout:flush()
vim.cmd('qall!')
