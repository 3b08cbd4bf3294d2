;;; absinthe-dom.el --- absinthe's .dom files with eglot  -*- lexical-binding: t; -*-

;; Load this file from your init file (`(load "/path/to/absinthe-dom.el")`); `absinthe' must be
;; on `exec-path'. Emacs 29 has eglot built in; open a .dom file and run M-x eglot (or keep the
;; hook below, which starts it for every .dom buffer).

(define-derived-mode absinthe-dom-mode prog-mode "dom"
  "Major mode for absinthe's .dom rule files."
  (setq-local comment-start "// ")
  (setq-local comment-start-skip "//+ *")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 4))

(add-to-list 'auto-mode-alist '("\\.dom\\'" . absinthe-dom-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(absinthe-dom-mode "absinthe" "lsp")))

(add-hook 'absinthe-dom-mode-hook #'eglot-ensure)

(provide 'absinthe-dom)
;;; absinthe-dom.el ends here
