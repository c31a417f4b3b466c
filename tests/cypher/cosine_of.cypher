RETURN vector.similarity.cosine($a, $b) AS similarity
