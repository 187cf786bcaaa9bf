-- Drives neovim's built-in LSP client (neovim 0.7 API) against the JTOO
-- language server, headless; tests/neovim.rs runs it and checks what it
-- writes. Environment: JTOO_LSP_CMD (the server command, JSON list),
-- JTOO_FILE (an HTOO file with an error), JTOO_FIX (JSON: row, col_start,
-- col_end, text: the edit that fixes it, in bytes), JTOO_OUT (results).
local out = {}

local function finish()
  local f = io.open(os.getenv('JTOO_OUT'), 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local function run()
  local cmd = vim.fn.json_decode(os.getenv('JTOO_LSP_CMD'))
  local fix = vim.fn.json_decode(os.getenv('JTOO_FIX'))
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('JTOO_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  -- neovim 0.7 does not know the extension; the filetype is the languageId.
  vim.bo[buf].filetype = 'htoo'

  local client_id = vim.lsp.start_client({
    name = 'jtoo',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(os.getenv('JTOO_FILE'), ':h'),
    on_exit = function(code, signal)
      out.exit_code = code
      out.exit_signal = signal
    end,
  })
  if not client_id then
    out.error = 'start_client failed'
    return
  end
  vim.lsp.buf_attach_client(buf, client_id)

  -- 1. The diagnostic of the error, at the right line and column.
  if not vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
    out.error = 'no diagnostics within 30 s'
    return
  end
  local d = vim.diagnostic.get(buf)[1]
  out.diagnostic = { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                     message = d.message, severity = d.severity, source = d.source }

  -- 2. Fix it by typing (an incremental change); the diagnostic goes away.
  vim.api.nvim_buf_set_text(buf, fix.row, fix.col_start, fix.row, fix.col_end, { fix.text })
  out.cleared = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

  -- 3. Hover on the fixed value.
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = vim.lsp.util.make_position_params().position,
  }
  params.position = { line = fix.row, character = fix.hover_character }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000)
  if hover and hover[client_id] and hover[client_id].result then
    out.hover = hover[client_id].result.contents.value
  end

  -- 4. The outline.
  local symbols = vim.lsp.buf_request_sync(buf, 'textDocument/documentSymbol',
    { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000)
  if symbols and symbols[client_id] and symbols[client_id].result then
    out.symbols = {}
    for _, s in ipairs(symbols[client_id].result) do
      table.insert(out.symbols, s.name)
    end
  end

  -- 5. Format the file; the comments must survive.
  vim.lsp.buf.formatting_sync(nil, 10000)
  out.formatted = vim.api.nvim_buf_get_lines(buf, 0, -1, false)

  -- 6. A clean shutdown.
  vim.lsp.stop_client(client_id)
  vim.wait(10000, function() return out.exit_code ~= nil end, 20)
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
finish()
