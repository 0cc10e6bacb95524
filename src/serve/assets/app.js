// The page script (placeholder).
