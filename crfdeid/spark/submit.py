"""The file to give ``spark-submit`` (absolute imports: Spark runs it as a script)::

    spark-submit --master yarn "$(python -c 'import crfdeid.spark.submit as m; print(m.__file__)')" \\
        --input hdfs:///notes --output hdfs:///deid --output-format surrogate --key-file secret.key

Arguments are those of ``python -m crfdeid spark``; the master is ``spark-submit``'s.
"""

import sys

from crfdeid.cli.spark import main

if __name__ == "__main__":
    sys.exit(main())
