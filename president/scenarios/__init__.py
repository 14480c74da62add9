"""The scenario model: step phrases (`steps`), scenarios built from the spec's examples (`model`),
the English Gherkin writer (`gherkin`) and clause coverage (`coverage`)."""
