"""Text -> tokens: the clinical tokenizer (character offsets, glue flags) and the segmenter."""
